"""What MindSpore's graph mode does with each form of Python, measured per release and shipped as
``mslint/data/syntax-<release>.json`` (written by ``scripts/generate_syntax_table.py``).

A row is a form (``builtin.max/tensor``, ``stmt.Try/except``, ``state.self-list.append``); for each
position it was measured at (``construct``, ``helper``, ``jit``, ``branch``, ``loop``, ``grad``)
and each syntax level (``strict``, ``lax``) the table keeps the most severe thing the compiler
showed: ``ok``, ``error``, ``fallback``, ``compile-time``, ``dynamic-shape``,
``untracked-parameters``, ``divergence``, ``crashed``, ``timed-out`` or ``not-verifiable``.

``mslint/data/augassign-<release>.json`` (``scripts/generate_augassign_table.py``) has the same
shape: a row per augmented assignment on a tensor (``augassign.input/+=``), measured in the entry
and in a helper it calls, with graph mode compared with PyNative over two calls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from mslint.mindspore_tables import DATA, nearest_release, parse_release, releases_with

OK, ERROR, FALLBACK, COMPILE_TIME, DIVERGENCE = "ok", "error", "fallback", "compile-time", "divergence"


@dataclass(frozen=True)
class Outcome:
    """What one compile of a form showed."""

    kind: str
    on_hazard_line: bool = False
    """Whether the compiler's evidence points at the form's hazard line (not only elsewhere)."""
    message: str = ""
    """The first line of the error (``error``, ``divergence``, a crash), else empty."""

    @classmethod
    def from_json(cls, data: list[Any]) -> Outcome:
        return cls(str(data[0]), bool(data[1]) if len(data) > 1 else False, str(data[2]) if len(data) > 2 else "")


@dataclass(frozen=True)
class SyntaxTable:
    release: str
    rows: dict[str, Any]

    def has(self, row: str) -> bool:
        return row in self.rows

    def ids(self, prefix: str = "") -> tuple[str, ...]:
        """The row ids that start with ``prefix``, sorted."""
        return tuple(sorted(r for r in self.rows if r.startswith(prefix)))

    def positions(self, row: str) -> tuple[str, ...]:
        """The positions ``row`` was measured at."""
        return tuple(self._row(row)["outcomes"])

    def outcome(self, row: str, position: str = "construct", level: str = "strict") -> Outcome:
        """The outcome of ``row`` at ``position`` and ``level``; KeyError for an unknown row or a
        position it was not measured at."""
        return Outcome.from_json(self._row(row)["outcomes"][position][level])

    def code(self, row: str) -> str:
        return str(self._row(row)["code"])

    def family(self, row: str) -> str:
        return str(self._row(row)["family"])

    def _row(self, row: str) -> dict[str, Any]:
        found: dict[str, Any] = self.rows[row]
        return found


def syntax_releases(kind: str = "syntax") -> tuple[str, ...]:
    """The releases with a measured syntax table (or a table of ``kind``), oldest first."""
    return releases_with(kind)


def syntax_release(release: str | None = None, kind: str = "syntax") -> str:
    """The measured release that describes ``release`` (the release the run targets, as the API
    tables choose it): the newest one not newer, else the oldest; the newest without one."""
    releases = syntax_releases(kind)
    if release is None:
        return releases[-1]
    return nearest_release(releases, parse_release(release))


@cache
def syntax_table(release: str | None = None) -> SyntaxTable:
    """The table describing ``release`` (see :func:`syntax_release`)."""
    chosen = syntax_release(release)
    data = json.loads((DATA / f"syntax-{chosen}.json").read_text(encoding="utf-8"))
    return SyntaxTable(chosen, data["rows"])


@cache
def augassign_table(release: str | None = None) -> SyntaxTable:
    """The table of augmented assignments on tensors describing ``release``."""
    chosen = syntax_release(release, "augassign")
    data = json.loads((DATA / f"augassign-{chosen}.json").read_text(encoding="utf-8"))
    return SyntaxTable(chosen, data["rows"])
