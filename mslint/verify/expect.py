"""``mslint verify --expect STATUS.csv``: a readiness gate that fails only on a regression.

Each compiled entry has a verified status per syntax level: ``compiles``, ``falls-back`` (LAX
only, with the number of lines the interpreter runs), ``fails`` (an error of the code stopped
the compile, building the Cell or compiling it), or why it was not compiled (``not-verifiable``,
``crashed``, ``timed-out``). The expectations are a CSV file, one row per entry, keyed by its
qualified name (``pkg.models.resnet:ResNet``, an example factory ``examples:make_resnet``), so
that edits that move lines, and upgrades that keep every outcome, leave it as it is.

A regression is an entry whose status at a level is worse than expected (compiles, then falls
back, then fails), that falls back at more lines, or that was compiled before and is not now.
Better statuses, new entries and entries this run did not compile (another shard's) are not.
``--update-expect`` writes this run's statuses over those of the entries it compiled, keeps
the other rows, and writes nothing when nothing changed. An entry is named after a file, and a
file's name is anyone's: a name a spreadsheet would evaluate (``=HYPERLINK(...)``, ``+``,
``-``, ``@``) is written behind a ``'``, which a spreadsheet shows as text, and read back without it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from mslint.atomic_write import write_atomically
from mslint.discovery import UsageError
from mslint.model.module import module_name_for
from mslint.source import read_regular_file
from mslint.verify.compiler_output import FALLBACK
from mslint.verify.runner import LEVELS, Job, Outcome
from mslint.verify.statuses import CRASHED, NOT_VERIFIABLE, RAN, TIMED_OUT

COMPILES, FALLS_BACK, FAILS = "compiles", "falls-back", "fails"
_RANKS = {COMPILES: 0, FALLS_BACK: 1, FAILS: 2}
"""The statuses of a compile that ran, best first; the others (not compiled) rank after them."""
_NOT_COMPILED = (NOT_VERIFIABLE, CRASHED, TIMED_OUT)
_STRICT, _LAX = LEVELS
COLUMNS = ("entry", _STRICT, _LAX, "lax_fallback_lines")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula."""
LARGEST_EXPECTATIONS = 64 * 1024 * 1024
"""Bytes: a larger expectations file is not read (nor one that is not a regular file)."""
LARGEST_FIELD = 128 * 1024
"""Characters of one field: Python's default, whatever another import (MindSpore) made it."""
_MOST_LINE_DIGITS = 9


@dataclass(frozen=True)
class Status:
    """One entry's verified status at each level (None: not compiled at that level in this run)."""

    strict: str | None
    lax: str | None
    fallback_lines: int = 0
    """At LAX, the lines the interpreter runs (for ``falls-back``)."""

    def at(self, level: str) -> str | None:
        return self.strict if level == _STRICT else self.lax

    def row(self, entry: str) -> list[str]:
        return [_as_text(entry), self.strict or "", self.lax or "", str(self.fallback_lines)]


def _as_text(cell: str) -> str:
    """A cell a spreadsheet shows as it is, never evaluates (``'=1+2`` shows ``=1+2``)."""
    return f"'{cell}" if cell.startswith(_FORMULA_STARTS) else cell


def _from_text(cell: str) -> str:
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(_FORMULA_STARTS) else cell


@dataclass
class Gate:
    regressions: list[str]
    improvements: list[str]
    new: list[str]


def qualified_name(job: Job) -> str:
    """``pkg.module:Name``: the entry's module, by the packages around its file, and its name."""
    return f"{module_name_for(job.path)[1]}:{job.name}"


def statuses(outcomes: Iterable[Outcome]) -> dict[str, Status]:
    """The verified status of each entry compiled, by qualified name."""
    levels: dict[str, dict[str, Outcome]] = {}
    for outcome in outcomes:
        levels.setdefault(qualified_name(outcome.job), {})[outcome.job.level] = outcome
    found = {}
    for entry, by_level in levels.items():
        lax = by_level.get(_LAX)
        lines = (
            len({p.locations[-1] for p in lax.problems if p.kind == FALLBACK and p.locations}) if lax is not None else 0
        )
        lax_status = _status(lax, lines)
        found[entry] = Status(_status(by_level.get(_STRICT), 0), lax_status, lines if lax_status == FALLS_BACK else 0)
    return found


def _status(outcome: Outcome | None, fallback_lines: int) -> str | None:
    if outcome is None:
        return None
    if outcome.status not in RAN:
        return outcome.status
    if outcome.stopped:
        return FAILS
    return FALLS_BACK if fallback_lines else COMPILES


def read_expectations(path: Path) -> dict[str, Status]:
    """The rows of an expectations file; a one-line :class:`UsageError` when it is not one."""
    try:
        text = read_regular_file(path, LARGEST_EXPECTATIONS).decode("utf-8")
    except OSError as error:
        hint = ": write it with --update-expect" if isinstance(error, FileNotFoundError) else ""
        raise UsageError(f"{path}: cannot read: {error.strerror or error}{hint}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text: expected a CSV of {', '.join(COLUMNS)}") from None
    reader = csv.reader(io.StringIO(text))
    # The limit is the process's: importing MindSpore raises it from 128 KiB to 10 MiB.
    limit = csv.field_size_limit(LARGEST_FIELD)
    try:
        rows = list(reader)
    except csv.Error as error:  # a field past LARGEST_FIELD, a NUL
        raise UsageError(f"{path}:{reader.line_num}: not a CSV row: {error}") from None
    finally:
        csv.field_size_limit(limit)
    if not rows or tuple(rows[0]) != COLUMNS:
        raise UsageError(f"{path}:1: expected the header {','.join(COLUMNS)}")
    found = {}
    known = {"", *_RANKS, *_NOT_COMPILED}
    for number, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        if len(row) != len(COLUMNS) or not row[0] or not {row[1], row[2]} <= known or not _is_count(row[3]):
            shown = ",".join(row)
            shown = shown if len(shown) <= 200 else f"{shown[:200]}..."
            raise UsageError(f"{path}:{number}: expected an entry, two statuses and a number of lines: {shown}")
        found[_from_text(row[0])] = Status(row[1] or None, row[2] or None, int(row[3]))
    return found


def _is_count(text: str) -> bool:
    """A number of lines: ASCII digits (``int`` takes ``²`` and refuses thousands of digits)."""
    return text.isascii() and text.isdigit() and len(text) <= _MOST_LINE_DIGITS


def compare(expected: dict[str, Status], actual: dict[str, Status]) -> Gate:
    gate = Gate([], [], sorted(set(actual) - set(expected)))
    for entry in sorted(set(actual) & set(expected)):
        for level in LEVELS:
            before, now = expected[entry].at(level), actual[entry].at(level)
            if before is None or now is None:
                continue
            lines = (expected[entry].fallback_lines, actual[entry].fallback_lines) if level == _LAX else (0, 0)
            change = f"{entry}: {level.upper()} {_describe(now, lines[1])}, expected {_describe(before, lines[0])}"
            if _rank(now) > _rank(before) or (now == before == FALLS_BACK and lines[1] > lines[0]):
                gate.regressions.append(change)
            elif _rank(now) < _rank(before) or (now == before == FALLS_BACK and lines[1] < lines[0]):
                gate.improvements.append(change)
    return gate


def _rank(status: str) -> int:
    return _RANKS.get(status, len(_RANKS))


def _describe(status: str, lines: int) -> str:
    return f"falls back at {lines} line{'s' if lines != 1 else ''}" if status == FALLS_BACK else status


def updated(expected: dict[str, Status], actual: dict[str, Status]) -> dict[str, Status]:
    """The expectations with this run's statuses; a level this run did not compile keeps its own."""
    rows = dict(expected)
    for entry, status in actual.items():
        before = expected.get(entry, Status(None, None))
        lax = status.lax if status.lax is not None else before.lax
        lines = status.fallback_lines if status.lax is not None else before.fallback_lines
        rows[entry] = Status(status.strict if status.strict is not None else before.strict, lax, lines)
    return rows


def write_expectations(path: Path, rows: dict[str, Status]) -> bool:
    """Write the rows, sorted by entry, when they differ from the file's; whether it was written."""
    stream = io.StringIO()
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows[entry].row(entry) for entry in sorted(rows))
    text = stream.getvalue()
    try:
        if path.is_file() and read_regular_file(path, LARGEST_EXPECTATIONS) == text.encode("utf-8"):
            return False
        write_atomically(path, text.encode("utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(f"{path}: cannot write: {getattr(error, 'strerror', None) or error}") from None
    return True


def run_gate(path: Path, update: bool, outcomes: Iterable[Outcome]) -> tuple[list[str], bool]:
    """Compare the run's statuses with the expectations, or record them (``update``): the lines
    to print, and whether a regression fails the run."""
    actual = statuses(outcomes)
    expected = read_expectations(path) if path.is_file() or not update else {}
    if update:
        written = write_expectations(path, updated(expected, actual))
        done = "updated" if written else "unchanged, every status as expected"
        return [f"{path} {done} ({len(actual)} entries verified in this run)"], False
    gate = compare(expected, actual)
    lines = [f"regression: {change}" for change in gate.regressions]
    lines += [f"improved: {change} (--update-expect records it)" for change in gate.improvements]
    lines += [f"not in {path}: {entry} (--update-expect records it)" for entry in gate.new]
    return lines, bool(gate.regressions)
