"""What the findings an entry reaches say about its compile, at one syntax level.

A finding's severity at each level is the evidence (DESIGN.md section 3): an ``error`` is code
the compiler rejects at that level; a LAX ``warning`` whose severity changes with the syntax
level is code STRICT rejects (or compiles) and LAX runs in the Python interpreter, a fallback;
any other ``warning`` compiles but breaks on some targets or silently misbehaves; ``info`` is
advice. An entry without any of these has "no finding": only the compiler can show that it
compiles (``mslint verify``, read with ``--verify-results``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mslint.diagnostics import Severities, Severity

STRICT, LAX = "strict", "lax"
LEVELS = (STRICT, LAX)

COMPILES, NO_FINDING, WARNINGS, FALLS_BACK, FAILS = "compiles", "no-finding", "warnings", "falls-back", "fails"
STATUSES = {STRICT: (COMPILES, NO_FINDING, WARNINGS, FAILS), LAX: (COMPILES, NO_FINDING, WARNINGS, FALLS_BACK, FAILS)}
"""Each level's statuses, best first (STRICT never falls back: it raises instead). ``compiles``
is the compiler's word, never a prediction: an entry with no finding that verify compiled."""
STATUS_LABELS = {
    COMPILES: "compiles",
    NO_FINDING: "no finding",
    WARNINGS: "warnings",
    FALLS_BACK: "falls back",
    FAILS: "fails",
}
COUNTED = {
    COMPILES: "compile",
    NO_FINDING: "with no finding",
    WARNINGS: "with warnings",
    FALLS_BACK: "fall back",
    FAILS: "fail",
}
"""After a number of entries: "21 fail"."""


@dataclass(frozen=True)
class LevelStatus:
    status: str
    lines: int
    """The source lines (file and line) behind the status: the failing, falling back or warning ones."""


def level_status(findings: Iterable[tuple[str, int, Severities]], level: str) -> LevelStatus:
    """The status at ``level`` of an entry reaching ``findings`` (path, line, severities)."""
    lines: dict[str, set[tuple[str, int]]] = {FAILS: set(), FALLS_BACK: set(), WARNINGS: set()}
    for path, line, severities in findings:
        severity = severities.at(level)
        if severity == Severity.ERROR:
            lines[FAILS].add((path, line))
        elif level == LAX and severities.falls_back:
            lines[FALLS_BACK].add((path, line))
        elif severity == Severity.WARNING:
            lines[WARNINGS].add((path, line))
    for status in (FAILS, FALLS_BACK, WARNINGS):
        if lines[status]:
            return LevelStatus(status, len(lines[status]))
    return LevelStatus(NO_FINDING, 0)


def counted(entries: int, files: int) -> str:
    """``444 graph entries in 823 files``."""
    return f"{plural(entries, 'graph entry', 'graph entries')} in {plural(files, 'file')}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"
