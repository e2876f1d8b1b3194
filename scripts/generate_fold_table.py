"""Write mslint/data/folds-<version>.json: which conditions on a graph constant the installed
MindSpore folds while parsing, so that the branch it does not take is never compiled.

Each condition (a constant's truth, ``not``, ``is None``, ``is not None``, ``isinstance`` of a
builtin type, of ``Tensor`` and of ``np.ndarray``, ``hasattr`` of a number and of a sub-Cell,
``and``, ``or``, an ``and``/``or`` decided by its first operand, ``==``, ``<``, a chained
comparison, ``in`` and ``not in`` a literal tuple or dict, ``len`` of a tuple, a list, a string, a
``CellList`` or a ``SequentialCell``) reads a
constant from one source or more (an attribute ``__init__`` sets, a ``construct`` argument the call
gives as a Python value, a module constant; for some, an attribute of a sub-Cell, an item of a dict
or a tuple ``__init__`` sets, ``self.training`` as ``set_train`` gives it), once with a value that
makes it true and once false (a compile that runs Python while compiling is ``compile-time``). It is
the test of an ``if``, of a conditional expression and (false only: a true one never ends) of a
``while``, whose dead branch calls a name defined nowhere, which the compiler rejects wherever it
compiles it: a cell is ``ok`` where the compile succeeds (folded: the dead branch never compiled),
``error`` where it fails. Two control rows show that the dead code fails where it is compiled:
alone, and under a tensor's test (which nothing folds). Every program is compiled in STRICT and in
LAX through the verifier (:func:`mslint.verify.runner.run_jobs`: a forked process per compile).
Run it in an environment with the release to describe: ``python scripts/generate_fold_table.py``;
``--only PREFIX`` (repeatable) re-measures those rows and keeps the others; ``--check`` only compares:
the whole table (2,156 compiles, about 195 CPU-s from an empty cache on 2.10) is checked in CI from the
committed record of its compiles (:mod:`compile_record`), compiling only the programs it does not
hold; ``--recompile`` compiles the programs the record holds too.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

from compile_record import CompileRecord, keep_or_check
from generate_syntax_table import RECOMPILE_HELP, compile_keys, measure, render_table
from graph_syntax.forms import IMPORTS, Form, Program
from mindspore_table import chosen_forms, installed_mindspore, outcome_summary, shipped_rows, write_or_check

POSITIONS = ("if", "ifexp", "while", "value")
"""The test of an ``if``, of a conditional expression, of a ``while``; ``value``: an ``and``/``or``
decided by its first operand, assigned (``z = self.flag and <dead>``), not tested."""
DEAD = {"name": "undefined_in_fold_table(x)", "attribute": "self.absent_in_fold_table(x)"}
"""What the dead branch calls: a name defined nowhere (which the parser rejects) or an attribute
``__init__`` never sets (which type inference rejects); either fails in STRICT and LAX wherever it
is compiled (the control rows measure that)."""
LIVE = "x + 1"


BASE_SOURCES = ("self", "subcell", "input", "module")
"""The sources every condition is measured on (:data:`SOURCES`)."""
HELD_SOURCES = ("attribute", "item", "index")
"""Constants held by something ``__init__`` sets: a sub-Cell's attribute, a dict's item, a tuple's."""
SHAPE_SOURCES = ("shape",)
"""Python ints computed from an input's static shape (``n % 8`` of ``n, _ = x.shape``), the value
being the input's first dimension: only comparisons are measured on them (no shape is ``None``)."""


class Condition(NamedTuple):
    test: str
    """The test, reading the constant as ``{c}`` (and a second one, always ``True``, as ``{d}``);
    ``{dead}`` where an operand is never evaluated when the test is folded."""
    true: object
    """A value of the constant that makes the test true; ``None`` where no row is true."""
    false: object
    sources: tuple[str, ...] = BASE_SOURCES
    """The sources the condition is measured on."""


class Code(str):
    """A value written as this code in the program (``_input()``, ``nn.CellList([...])``), not as
    a literal."""

    def __repr__(self) -> str:
        return str(self)


_CELLS = "nn.CellList([nn.ReLU(), nn.ReLU()])", "nn.CellList([nn.ReLU()])"
_SEQUENTIAL = "nn.SequentialCell([nn.ReLU(), nn.ReLU()])", "nn.SequentialCell([nn.ReLU()])"


_ABSENT = object()
"""Where a condition has no row of one truth (``c and <dead>`` is never true when folded)."""

CONDITIONS: dict[str, Condition] = {
    "truth": Condition("{c}", True, False, (*BASE_SOURCES, *HELD_SOURCES, "training")),
    "not": Condition("not {c}", False, True, (*BASE_SOURCES, *HELD_SOURCES, "training")),
    "is-none": Condition("{c} is None", None, 1, (*BASE_SOURCES, *HELD_SOURCES)),
    "is-not-none": Condition("{c} is not None", 1, None, (*BASE_SOURCES, *HELD_SOURCES)),
    "isinstance": Condition("isinstance({c}, int)", 1, None),
    "hasattr": Condition('hasattr({c}, "real")', 1, None),
    "and": Condition("{c} and {d}", True, False, (*BASE_SOURCES, "training")),
    "or": Condition("{c} or not {d}", True, False, (*BASE_SOURCES, "training")),
    "and-decided": Condition("{c} and {dead}", _ABSENT, False, (*BASE_SOURCES, "training")),
    "or-decided": Condition("{c} or {dead}", True, _ABSENT, (*BASE_SOURCES, "training")),
    "compare-eq": Condition("{c} == 1", 1, 0, (*BASE_SOURCES, *HELD_SOURCES, *SHAPE_SOURCES)),
    "compare-lt": Condition("{c} < 2", 1, 3, (*BASE_SOURCES, *HELD_SOURCES, *SHAPE_SOURCES)),
    "compare-chain": Condition("0 < {c} < 2", 1, 3, (*BASE_SOURCES, *SHAPE_SOURCES)),
    "in": Condition('{c} in ("a", "b")', "a", "c", (*BASE_SOURCES, *HELD_SOURCES)),
    "not-in": Condition("{c} not in (1, 2)", 3, 1),
    "in-keys": Condition('{c} in {"a": 1, "b": 2}', "a", "c"),
    "len": Condition("len({c}) > 1", (1, 2), (1,)),
    "len-list": Condition("len({c}) == 2", ["a", "b"], [1]),
    "len-str": Condition("len({c}) > 1", "ab", "a"),
    "len-cells": Condition("len({c}) > 1", Code(_CELLS[0]), Code(_CELLS[1]), ("self",)),
    "len-sequential": Condition("len({c}) > 1", Code(_SEQUENTIAL[0]), Code(_SEQUENTIAL[1]), ("self",)),
    "hasattr-cell": Condition('hasattr({c}, "weight")', Code("nn.Dense(2, 2)"), Code("nn.ReLU()"), ("self",)),
    "isinstance-tensor": Condition("isinstance({c}, Tensor)", Code("_input()"), 1, ("self", "input")),
    "isinstance-ndarray": Condition("isinstance({c}, np.ndarray)", Code("np.ones(2)"), 1, ("self", "input")),
}
SOURCES = {
    "self": ("self.flag", "self.other"),
    "subcell": ("flag", "other"),
    "input": ("flag", "other"),
    "module": ("FLAG", "OTHER"),
    "attribute": ("self.block.flag", "self.block.other"),
    "item": ('self.cfg["flag"]', 'self.cfg["other"]'),
    "index": ("self.sizes[0]", "self.sizes[1]"),
    "training": ("self.training", "self.other"),
    "shape": ("n % 8", "n"),
}
"""How the test reads its constants: attributes set in ``__init__``; parameters of ``construct``
that a parent Cell's ``construct`` gives as Python values (``self.net(x, False, True)``), or that
the top-level call gives as inputs; module constants; an attribute of a sub-Cell ``__init__``
builds (``self.block = Flags(False)``), an item of a dict or a tuple ``__init__`` sets
(``self.cfg = {"flag": False, ...}``, ``self.sizes = (False, True)``); the Cell's ``training``,
set by ``set_train`` before the compile; what ``construct`` computes from its input's static shape
(``n, _ = x.shape`` first), the input's first dimension being the value."""
CONTROLS = {"control.live": "", "control.tensor": "x.sum() > 0"}
"""The dead code on its own (compiled: an error), and under a tensor's test (both branches compiled)."""


class Case(NamedTuple):
    dead: str
    source: str
    value: object
    truth: bool
    test: str
    """The test as the program reads it, ``{dead}`` left in."""


def cases() -> dict[str, Case]:
    """Every row but the controls, by id: ``fold.<condition>.<source>/<true|false>/<dead>``."""
    made = {}
    for name, condition in CONDITIONS.items():
        for source, (c, d) in ((source, SOURCES[source]) for source in condition.sources):
            for truth, value in ((True, condition.true), (False, condition.false)):
                for dead in DEAD if value is not _ABSENT else ():
                    test = condition.test.replace("{c}", c).replace("{d}", d)
                    made[f"fold.{name}.{source}/{str(truth).lower()}/{dead}"] = Case(dead, source, value, truth, test)
    return made


def controls() -> dict[str, tuple[str, str]]:
    """The control rows, by id (``control.live/name``): their dead code and test."""
    return {f"{row}/{dead}": (dead, test) for row, test in CONTROLS.items() for dead in DEAD}


def forms() -> list[Form]:
    """A form per row: its body is the test as written (the controls': the dead code)."""
    made = [Form(row, "fold", case.test.replace("{dead}", DEAD[case.dead])) for row, case in cases().items()]
    return made + [Form(row, "control", test or DEAD[dead]) for row, (dead, test) in controls().items()]


def positions(form: Form) -> tuple[str, ...]:
    """``while`` only where the test is false: a true constant never ends the loop; ``value`` only
    for an ``and``/``or`` that its first operand decides (the others have no dead operand)."""
    case = cases().get(form.id)
    if form.id.startswith("control.live/"):
        return ("if",)
    tested = POSITIONS[:3] if case is None or not case.truth else POSITIONS[:2]
    return (*tested, "value") if "-decided." in form.id else tested


def render(form: Form, position: str) -> Program:
    """The program measuring ``form`` at ``position``: ``make()`` returns ``(Net(), inputs)``; the
    hazard line is the dead code's."""
    case = cases().get(form.id)
    value = repr(case.value) if case else "True"
    dead_kind, test = (case.dead, case.test) if case else controls()[form.id]
    dead = DEAD[dead_kind]
    test = test.replace("{dead}", dead)
    source = case.source if case else "self"
    lines = [*IMPORTS, ""]
    if source == "module":
        lines += [f"FLAG = {value}", "OTHER = True", ""]
    if source == "attribute":
        lines += ["", "class Flags(nn.Cell):", "    def __init__(self, flag):", "        super().__init__()"]
        lines += ["        self.flag = flag", "        self.other = True", ""]
        lines += ["    def construct(self, x):", "        return x", ""]
    lines += ["", "class Net(nn.Cell):", "    def __init__(self):", "        super().__init__()"]
    if source in ("self", "training"):
        lines += [f"        self.flag = {value}", "        self.other = True"]
    elif source == "attribute":
        lines += [f"        self.block = Flags({value})"]
    elif source == "item":
        lines += [f'        self.cfg = {{"flag": {value}, "other": True}}']
    elif source == "index":
        lines += [f"        self.sizes = ({value}, True)"]
    given = source in ("subcell", "input")
    lines += ["", "    def construct(self, x, flag, other):" if given else "    def construct(self, x):"]
    first, second = (LIVE, dead) if case is not None and case.truth else (dead, LIVE)  # a control's: taken
    if not test:  # control.live
        body = [f"y = {dead}"]
    elif position == "ifexp":
        body = [f"y = {first} if {test} else {second}"]
    elif position == "while":
        body = ["y = x", f"while {test}:", f"    y = {dead}", "    break"]
    elif position == "value":
        body = [f"z = {test}", "y = x + 1"]
    else:
        body = [f"if {test}:", f"    y = {first}", "else:", f"    y = {second}"]
    if source == "shape":
        body = ["n, _ = x.shape", *body]
    start = len(lines)
    marked = next(i for i, line in enumerate(body) if dead in line)
    lines += ["        " + line for line in [*body, "return y"]]
    if source == "subcell":
        lines += ["", "", "class Outer(nn.Cell):", "    def __init__(self):", "        super().__init__()"]
        lines += [
            "        self.net = Net()",
            "",
            "    def construct(self, x):",
            f"        return self.net(x, {value}, True)",
        ]
    entry, inputs = ("Outer", "(_input(),)") if source == "subcell" else ("Net", "(_input(),)")
    if source == "input":
        inputs = f"(_input(), {value}, True)"
    if source == "training":  # `self.training` is what `set_train` gives
        lines += ["", "", "def make():", "    net = Net()", f"    net.set_train({value})", f"    return net, {inputs}"]
    else:
        lines += ["", "", "def make():", f"    return {entry}(), {inputs}"]
    lines += ["", "", "def _input():"]
    if source == "shape":  # the value is its first dimension
        lines += [f"    return Tensor(np.ones(({value}, 3), np.float32))", ""]
    else:
        lines += ["    return Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))", ""]
    return Program(form, position, "\n".join(lines), start + marked + 1)


_OBJECT_ID = re.compile(r"<(\w+)::\d+>")
"""The address in a message about an object (``'Namespace:form177_if..<Net::140634597457456>'``):
another at each run, the table keeps the class."""
_PROGRAM_INDEX = re.compile(r"Namespace:form\d+_")
"""The program's index in a message's namespace (``form177_if``): its place among the rows a run
measures, another where ``--only`` chooses some; the table keeps ``form_if``."""


def _without_ids(measured: dict[str, Any]) -> dict[str, Any]:
    """``measured`` with the addresses of objects and the programs' indices in its messages left out
    (:data:`_OBJECT_ID`, :data:`_PROGRAM_INDEX`)."""
    text = _PROGRAM_INDEX.sub("Namespace:form_", _OBJECT_ID.sub(r"<\1>", json.dumps(measured)))
    cleaned: dict[str, Any] = json.loads(text)
    return cleaned


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these rows only")
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument("--recompile", action="store_true", help=RECOMPILE_HELP)
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_fold_table.py")
    if version is None:
        return 2
    chosen = chosen_forms(forms(), args.only, noun="row")
    if not chosen:
        return 2
    rows = shipped_rows(f"folds-{version}.json", partial=bool(args.only))
    record = CompileRecord("folds", version, read=not args.recompile)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mslint-folds-") as scratch:
        measured, compiles = measure(
            chosen, POSITIONS, Path(scratch), render_at=render, positions_of=positions, record=record
        )
    record.used = _without_ids(record.used)  # else each re-measure rewrites the record's messages
    for row, values in measured.items():
        case = cases().get(row)
        values = _without_ids(values)
        rows[row] = {**values, **({"source": case.source, "truth": case.truth} if case else {})}
    summary = outcome_summary(measured, compiles, time.perf_counter() - started)
    print(summary, file=sys.stderr)
    table = write_or_check(f"folds-{version}.json", render_table(version, rows, POSITIONS), summary)
    whole = compile_keys(record, forms(), POSITIONS, render_at=render, positions_of=positions)
    return max(table, keep_or_check(record, whole, args.check, "python scripts/generate_fold_table.py"))


if __name__ == "__main__":
    sys.exit(main())
