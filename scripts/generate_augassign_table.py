"""Write mslint/data/augassign-<version>.json: what the installed MindSpore's graph mode does with an
augmented assignment (``x += 1``) on a tensor, against PyNative, for every augmented operator.

Each target (a ``construct`` input, an alias of it, an item of it, a tensor made in
``construct`` from a constant or by an op, an item of either, a loop counter, an operator's result,
a plain ``Tensor`` attribute, a ``Parameter``) is updated with each operator (by a constant, and for
an input and a ``Tensor(...)`` also by a graph value), in ``construct``, in a method it calls, in a
``@jit`` function (forms without ``self``) and in a sub-Cell whose parent reads what it gave,
and compiled in STRICT and in LAX through the verifier (:func:`mslint.verify.runner.run_jobs`, a
forked process per compile) with the comparison on: a fresh instance per mode, called twice with
the same input objects, its output, its inputs and its state compared
(:mod:`mslint.verify.divergence`). A cell is read as the syntax table reads one
(:func:`generate_syntax_table.cell`): ``ok``, ``divergence`` (with what differed), ``error``, ...
Run it in an environment with the release to describe: ``python scripts/generate_augassign_table.py``;
``--only PREFIX`` and ``--position P`` (repeatable) re-measure those rows and positions and keep the
others; ``--check`` only compares. The cells are read from the table's record of compiles where it
holds their programs and the record is written with the table, as the syntax table's
(:mod:`compile_record`); ``--recompile`` compiles every program.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from compile_record import CompileRecord, keep_or_check
from generate_syntax_table import RECOMPILE_HELP, compile_keys, measure, render_table
from graph_syntax.forms import HAZARD, IMPORTS, Form, Program
from mindspore_table import chosen_forms, installed_mindspore, outcome_summary, shipped_rows, write_or_check

POSITIONS = ("construct", "helper", "jit", "subcell")
"""The entry's ``construct`` itself, a method it calls with its input, a ``@jit`` function (for
the forms that do not read ``self``), and the ``construct`` of a Cell that the entry calls on an
intermediate it reads again after the call (``h = x * 1; y = self.inner(h); y = y + h``)."""

OPERATORS = ("+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "&=", "|=", "^=", "<<=", ">>=")
_NAMES = {
    "+=": "add",
    "-=": "sub",
    "*=": "mul",
    "/=": "div",
    "//=": "floordiv",
    "%=": "mod",
    "**=": "pow",
    "@=": "matmul",
    "&=": "and",
    "|=": "or",
    "^=": "xor",
    "<<=": "lshift",
    ">>=": "rshift",
}
_BITWISE = ("&=", "|=", "^=", "<<=", ">>=")

TARGETS: dict[str, tuple[str, str]] = {
    "input": ("", "x {op} {rhs}  # hazard\ny = x"),
    "input.element": ("", "x[0] {op} {rhs}  # hazard\ny = x"),
    "input.rebound": ("", "x = x {bare} {rhs}  # hazard\ny = x"),
    "local-constant": ("", "t = Tensor({const})\nt {op} {rhs}  # hazard\ny = x + t"),
    "local-constant.graph-rhs": ("", "t = Tensor({const})\nt {op} x * 1  # hazard\ny = x + t"),
    "local-constant.element": ("", "t = Tensor({const})\nt[0] {op} {rhs}  # hazard\ny = x + t"),
    "input.graph-rhs": ("", "x {op} x * 1  # hazard\ny = x"),
    "input.alias": ("", "t = x\nt {op} {rhs}  # hazard\ny = t"),
    "local-op": ("", "t = ops.ones_like(x)\nt {op} {rhs}  # hazard\ny = x + t"),
    "local-op.zeros_like": ("", "t = ops.zeros_like(x)\nt {op} {rhs}  # hazard\ny = x + t"),
    "local-op.constant": ("", "t = ops.ones((2, 2), {ms_dtype})\nt {op} {rhs}  # hazard\ny = x + t"),
    "local-computed": ("", "t = x * 1\nt {op} {rhs}  # hazard\ny = x + t"),
    "local-op.element": ("", "t = ops.ones_like(x)\nt[0] {op} {rhs}  # hazard\ny = x + t"),
    "loop-counter": ("", "i = Tensor(1, {dtype})\nwhile i < 3:\n    i {op} {step}  # hazard\ny = x + i"),
    "attribute": ("self.t = Tensor({const})", "self.t {op} {rhs}  # hazard\ny = x + self.t"),
    "parameter": ("self.p = ms.Parameter(Tensor({const}), name='p')", "self.p {op} {rhs}  # hazard\ny = x + self.p"),
}
_OPERATORS_OF = {"input.rebound": ("+=",), "loop-counter": ("+=", "*=", "<<=")}
"""The operators a target is measured with where not all: a rebinding is one form whatever the
operator, a loop counter has to reach its bound."""
"""Per target: the ``__init__`` line (if any) and the body, which reads the input ``x`` (a 2x2
tensor, int32 for the bitwise operators, else float32) and leaves a tensor in ``y``."""


def forms() -> list[Form]:
    """A form per target and operator: ``augassign.input/+=``."""
    made = []
    for target, (setup, body) in TARGETS.items():
        for op in _OPERATORS_OF.get(target, OPERATORS):
            numpy_dtype = "np.int32" if op in _BITWISE else "np.float32"
            values = {
                "op": op,
                "bare": op[:-1],
                "rhs": f"Tensor(np.full((2, 2), 2, {numpy_dtype}))" if op == "@=" else "2",
                "const": f"np.ones((2, 2), {numpy_dtype})",
                "dtype": "ms.int32",
                "ms_dtype": "ms.int32" if op in _BITWISE else "ms.float32",
                "step": "2" if op == "*=" else "1",
            }
            made.append(Form(f"augassign.{target}/{op}", "augassign", body.format(**values), setup.format(**values)))
    return made


def positions(form: Form) -> tuple[str, ...]:
    """The positions ``form`` is measured at: not ``jit`` for a form that reads ``self``."""
    return tuple(p for p in POSITIONS if not (p == "jit" and form.needs_self))


def render(form: Form, position: str) -> Program:
    """The program measuring ``form`` at ``position``: ``make()`` returns ``(Net(), (x,))``, or the
    ``@jit`` function and ``(x,)``."""
    body = form.body.splitlines()
    marked = next(i for i, line in enumerate(body) if line.rstrip().endswith(HAZARD))
    setup = ["        " + line for line in form.setup.splitlines()]
    dtype = "np.int32" if form.id.split("/")[1] in _BITWISE else "np.float32"
    made = f"(Tensor(np.array([[1, 2], [3, 4]], {dtype})),)"
    if position == "jit":
        lines = [*IMPORTS, "", "", "@ms.jit", "def entry(x):"]
        start = len(lines)
        lines += ["    " + line for line in [*body, "return y"]]
        lines += ["", "", "def make():", f"    return entry, {made}", ""]
        return Program(form, position, "\n".join(lines), start + marked + 1)
    lines = [*IMPORTS, "", "", "class Net(nn.Cell):", "    def __init__(self):", "        super().__init__()", *setup]
    lines += [""]
    if position == "helper":
        lines += ["    def construct(self, x):", "        return self.helper(x)", "", "    def helper(self, x):"]
    else:
        lines += ["    def construct(self, x):"]
    start = len(lines)
    lines += ["        " + line for line in [*body, "return y"]]
    if position == "subcell":
        lines += ["", "", "class Outer(nn.Cell):", "    def __init__(self):", "        super().__init__()"]
        lines += ["        self.inner = Net()", "", "    def construct(self, x):", "        h = x * 1"]
        lines += ["        y = self.inner(h)", "        return y + h"]
    lines += ["", "", "def make():", f"    return {'Outer' if position == 'subcell' else 'Net'}(), {made}", ""]
    return Program(form, position, "\n".join(lines), start + marked + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these rows only")
    parser.add_argument(
        "--position", action="append", choices=POSITIONS, help="re-measure these positions only (default: all)"
    )
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument("--recompile", action="store_true", help=RECOMPILE_HELP)
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_augassign_table.py")
    if version is None:
        return 2
    chosen = chosen_forms(forms(), args.only)
    if not chosen:
        return 2
    rows = shipped_rows(f"augassign-{version}.json", partial=bool(args.only or args.position))
    record = CompileRecord("augassign", version, read=not args.recompile)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mslint-augassign-") as scratch:
        measured, compiles = measure(
            chosen,
            tuple(args.position or POSITIONS),
            Path(scratch),
            compare=True,
            render_at=render,
            positions_of=positions,
            record=record,
        )
    for row, values in measured.items():
        kept = rows.get(row, {}).get("outcomes", {})
        rows[row] = {**values, "outcomes": {**kept, **values["outcomes"]}}
    summary = outcome_summary(measured, compiles, time.perf_counter() - started)
    print(summary, file=sys.stderr)
    table = write_or_check(f"augassign-{version}.json", render_table(version, rows, POSITIONS), summary)
    whole = compile_keys(record, forms(), POSITIONS, True, render, positions)
    return max(table, keep_or_check(record, whole, args.check, "python scripts/generate_augassign_table.py"))


if __name__ == "__main__":
    sys.exit(main())
