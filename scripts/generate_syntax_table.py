"""Write mslint/data/syntax-<version>.json: what the installed MindSpore's graph mode does with each
form of :mod:`graph_syntax.catalog`, at each position, in STRICT and in LAX.

Every form is rendered at each of its positions (:func:`graph_syntax.forms.render`) and compiled
through the verifier (:func:`mslint.verify.runner.run_jobs`: a forked process per compile, the
compiler's own evidence; one that crashes, again: :data:`CRASH_TRIES`). A cell of the table is the
most severe thing the compile showed, and whether the evidence points at the form's hazard line.
Run it in an environment with the release to describe: ``python scripts/generate_syntax_table.py``.
``--only PREFIX`` (repeatable) re-measures the rows whose id starts with a prefix and keeps the
others, ``--position P`` and ``--level L`` (repeatable) only those positions and levels;
``--check`` only compares: the whole table, about 14 minutes of CPU from an empty cache, is checked in
CI from the committed record of its compiles (:mod:`compile_record`). A cell is read from the record
where it holds its program's key, else, where its program, level and reading did not change since a
measurement here, from ``.mslint_cache/tables`` (:class:`mindspore_table.MeasurementCache`); the
generator writes the record with the table. ``--recompile`` compiles the programs the record holds too.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from compile_record import CompileRecord, keep_or_check
from graph_syntax.catalog import catalog
from graph_syntax.forms import HAZARD, POSITIONS, Form, Program, render
from mindspore_table import (
    MeasurementCache,
    chosen_forms,
    installed_mindspore,
    outcome_summary,
    shipped_rows,
    write_or_check,
)

from mslint.verify.runner import LEVELS, Job, Outcome, run_jobs
from mslint.verify.statuses import CRASHED, RAN

WORKERS = 2
FACTORY = "make"
"""The function of a program that returns the Cell (or ``@jit`` function) to compile and its inputs."""
TIMEOUT_S = 60.0

OK, DIVERGENCE = "ok", "divergence"
SEVERITY = (
    "crashed",
    "timed-out",
    "not-verifiable",
    "error",
    DIVERGENCE,
    "fallback",
    "untracked-parameters",
    "dynamic-shape",
    "runtime",
    "compile-time",
)
"""Outcome kinds, most severe first: a cell records the first kind the compile showed."""

COMPARED_IN_LAX = (
    (("state.", "class.", "function.", "stdlib.random", "stdlib.time", "numpy.random"), ("construct",)),
    (("builtin.setattr", "builtin.delattr"), ("construct",)),
    (
        ("builtin.dir/", "builtin.globals/", "builtin.locals/", "builtin.vars/", "builtin.iter/", "builtin.next/"),
        ("construct", "branch", "jit"),
    ),
)
"""Where the table has a divergence column (each program also run in graph mode and in PyNative, as
``--compare`` runs every program), in LAX: the rows whose hazard is Python state or host randomness
in ``construct`` (docs/graph-syntax.md), and the builtins that read the frame, the Cell or an
iterator in ``construct``, ``branch`` and ``jit``, as the table was measured."""

CRASH_TRIES = 5
"""Compiles of a program at most, while its compile crashes: a cell records what the compile shows
when it ends, and a crash only where it crashed each time. On 2.10 CPU some LAX compiles crash in
some runs and end in others (one process per compile, and in this generator's batches):
comprehension.list/if-tensor in a helper 3 times in 10 runs, in a loop once in 6, in ``construct``
once in 7 (else a fallback); numpy.split/list-of-tensors in @jit once in 10 (else a fallback), under
value_and_grad once in 15 (else a TypeError), where the table had recorded a crash; the jit and run
cells of the first and the loop cell of the second crashed in every run."""

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
_SIGNAL = re.compile(r" \(SIG[A-Z0-9]+\)")
"""The signal a crash names, left out of the table: a compile that crashes each time need not die of
the same one (comprehension.list/if-tensor in LAX, in @jit and in the entry, 4 runs each: SIGSEGV 7
times, SIGABRT once; the table had SIGABRT)."""
_PROGRAM = re.compile(r"\bform\d+_(?:" + "|".join(POSITIONS) + ")")
"""A program's module name (``form12_construct``), which depends on the forms measured with it."""


def cell(outcome: Outcome, program: Program, scratch: Path) -> list[Any]:
    """``[kind]``, ``[kind, on_hazard_line]`` or ``[kind, on_hazard_line, message]`` for one compile."""
    if outcome.status not in RAN:
        return [outcome.status, False, _message(_SIGNAL.sub("", outcome.reason or ""), scratch)]
    kinds = {p.kind for p in outcome.problems}
    kind = next((k for k in SEVERITY if k in kinds), OK)
    if kind == OK:
        return [OK]
    chosen = [p for p in outcome.problems if p.kind == kind]
    here = (str(outcome.job.path.resolve()), program.hazard_line)
    on_hazard = any(here in p.locations for p in chosen)
    if kind in ("error", DIVERGENCE):
        return [kind, on_hazard, _message(chosen[0].message, scratch)]
    return [kind, on_hazard]


def _message(text: str, scratch: Path) -> str:
    """The first line of a message, without what changes from run to run (paths, addresses)."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    first = first.replace(str(scratch.resolve()) + "/", "").replace(str(scratch) + "/", "")
    return _PROGRAM.sub("program", _ADDRESS.sub("0x?", first))[:240]


def code(form: Form) -> str:
    """The form's body as the docs show it, without the hazard marker."""
    lines = textwrap.dedent(form.body).strip("\n").splitlines()
    return "\n".join(line.replace(HAZARD, "").rstrip() for line in lines)


def measure(
    forms: list[Form],
    positions: tuple[str, ...],
    scratch: Path,
    levels: tuple[str, ...] = LEVELS,
    compare: bool = False,
    render_at: Callable[[Form, str], Program] = render,
    positions_of: Callable[[Form], tuple[str, ...]] = Form.positions,
    record: CompileRecord | None = None,
) -> tuple[dict[str, Any], int]:
    """The rows for ``forms``, measured at those of ``positions`` each has (``positions_of``) and at
    ``levels``, each program written by ``render_at``, and the number of compiles run: a cell is read
    from ``record`` by its program's key where the record holds it (each cell then gathered in its
    :attr:`~compile_record.CompileRecord.used`), else from the local cache where the program, level
    and reading did not change since a measurement here, else compiled."""
    cache = MeasurementCache(cell, _message, SEVERITY, _ADDRESS.pattern, _PROGRAM.pattern)
    programs: list[Program] = []
    jobs: list[Job] = []
    for index, program, level, compared_here in planned(forms, positions, levels, compare, render_at, positions_of):
        programs.append(program)
        path = scratch / f"form{index}_{program.position}.py"
        jobs.append(Job(path, FACTORY, level, factory=True, compare=compared_here))
    asked = [_asked(program, job.level, job.compare) for program, job in zip(programs, jobs)]
    keys = [record.key(a) if record is not None else "" for a in asked]
    cells = [(record and record.lookup(key)) or cache.lookup(a) for key, a in zip(keys, asked)]
    missing = [i for i, kept in enumerate(cells) if kept is None]
    for i in missing:  # only these are written: thousands of files cost seconds to write and remove
        jobs[i].path.write_text(programs[i].source)
    for i, outcome in zip(missing, compile_until_it_ends([jobs[i] for i in missing])):
        cells[i] = cell(outcome, programs[i], scratch)
        if outcome.status in RAN:  # a crash or a timeout may not happen again
            cache.keep(asked[i], cells[i])
    if record is not None:
        record.used.update(zip(keys, cells))
    rows: dict[str, Any] = {form.id: {"family": form.family, "code": code(form), "outcomes": {}} for form in forms}
    for program, job, measured in zip(programs, jobs, cells):
        rows[program.form.id]["outcomes"].setdefault(program.position, {})[job.level] = measured
    return rows, len(missing)


def planned(
    forms: Sequence[Form],
    positions: tuple[str, ...],
    levels: tuple[str, ...],
    compare: bool,
    render_at: Callable[[Form, str], Program],
    positions_of: Callable[[Form], tuple[str, ...]],
) -> Iterator[tuple[int, Program, str, bool]]:
    """Each compile of the table: the form's index, its program, the level, and whether it is compared."""
    for index, form in enumerate(forms):
        for position in (p for p in positions_of(form) if p in positions):
            program = render_at(form, position)
            for level in levels:
                yield index, program, level, compare or compared(form, position, level)


def compile_keys(
    record: CompileRecord,
    forms: Sequence[Form],
    positions: tuple[str, ...],
    compare: bool = False,
    render_at: Callable[[Form, str], Program] = render,
    positions_of: Callable[[Form], tuple[str, ...]] = Form.positions,
) -> set[str]:
    """The record's keys of every compile of the whole table of ``forms``, at both levels, compared
    everywhere with ``compare``, else where the table is (:func:`compared`)."""
    plan = planned(forms, positions, LEVELS, compare, render_at, positions_of)
    return {record.key(_asked(program, level, compared_here)) for _, program, level, compared_here in plan}


def compile_until_it_ends(jobs: list[Job]) -> list[Outcome]:
    """The outcome of each job: compiled again while it crashes, :data:`CRASH_TRIES` times at most."""
    outcomes = run_jobs(jobs, TIMEOUT_S, WORKERS, None)
    for _ in range(CRASH_TRIES - 1):
        crashed = [i for i, outcome in enumerate(outcomes) if outcome.status == CRASHED]
        if not crashed:
            break
        for i, outcome in zip(crashed, run_jobs([jobs[i] for i in crashed], TIMEOUT_S, WORKERS, None)):
            outcomes[i] = outcome
    return outcomes


def _asked(program: Program, level: str, compare: bool) -> dict[str, Any]:
    """What decides a cell, besides the release and the reading (:class:`mindspore_table.MeasurementCache`):
    the program, compiled by its factory at ``level``, and ``compare``d with PyNative or not."""
    return {
        "source": program.source,
        "hazard_line": program.hazard_line,
        "name": FACTORY,
        "level": level,
        "factory": True,
        "compare": compare,
    }


def compared(form: Form, position: str, level: str) -> bool:
    """Whether the table's cell of ``form`` at ``position`` and ``level`` is measured with the
    comparison (:data:`COMPARED_IN_LAX`)."""
    return level == "lax" and any(form.id.startswith(rows) and position in at for rows, at in COMPARED_IN_LAX)


def render_table(version: str, rows: dict[str, Any], positions: tuple[str, ...] = POSITIONS) -> str:
    """Compact, deterministic JSON, a row per line (so that a release's change is a readable diff)."""
    head = json.dumps({"levels": list(LEVELS), "mindspore": version, "positions": list(positions)}, sort_keys=True)
    lines = [
        f"{json.dumps(key)}:{json.dumps(rows[key], sort_keys=True, separators=(',', ':'))}" for key in sorted(rows)
    ]
    return head[:-1] + ',"rows":{\n' + ",\n".join(lines) + "\n}}\n"


RECOMPILE_HELP = (
    "compile the programs the record of compiles holds too, instead of reading their outcomes "
    "(what its key leaves out: the verifier, the reading of a compile, the Python)"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these rows only")
    parser.add_argument(
        "--position", action="append", choices=POSITIONS, help="re-measure these positions only (default: all)"
    )
    parser.add_argument("--level", action="append", choices=LEVELS, help="re-measure these levels only (default: both)")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run every program in graph mode and in PyNative (divergence), not only where the table does",
    )
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument("--recompile", action="store_true", help=RECOMPILE_HELP)
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_syntax_table.py")
    if version is None:
        return 2
    forms = chosen_forms(catalog(), args.only)
    if not forms:
        return 2
    positions = tuple(args.position or POSITIONS)
    rows = shipped_rows(f"syntax-{version}.json", partial=bool(args.only or args.position or args.level))
    record = CompileRecord("syntax", version, read=not args.recompile)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mslint-syntax-") as scratch:
        levels = tuple(args.level or LEVELS)
        measured, compiles = measure(forms, positions, Path(scratch), levels, args.compare, record=record)
    for row, values in measured.items():
        kept = rows.get(row, {}).get("outcomes", {}) if args.position or args.level else {}
        outcomes = {p: {**kept.get(p, {}), **levels} for p, levels in values["outcomes"].items()}
        rows[row] = {**values, "outcomes": {**kept, **outcomes}}
    summary = outcome_summary(measured, compiles, time.perf_counter() - started)
    print(summary, file=sys.stderr)
    table = write_or_check(f"syntax-{version}.json", render_table(version, rows), summary)
    whole = compile_keys(record, catalog(), POSITIONS)
    return max(table, keep_or_check(record, whole, args.check, "python scripts/generate_syntax_table.py"))


if __name__ == "__main__":
    sys.exit(main())
