"""What ``jit``'s bytecode and trace capture modes do with forms of Python, measured per release and
shipped as ``mslint/data/bytecode-<release>.json`` (``scripts/generate_bytecode_table.py``) and
``mslint/data/trace-<release>.json`` (``scripts/generate_trace_table.py``).

A bytecode row is a form of the syntax table with its verdict: ``compiles``, ``graph-break`` (with
the reason ``fullgraph=True`` gives), ``fails`` or ``diverges``. A trace row is a case such as
``control.if`` with its verdict: ``frozen`` (the traced function repeats what the first call
decided), ``fails`` or ``follows``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from mslint.mindspore_tables import DATA, nearest_release, parse_release, releases_with

COMPILES, GRAPH_BREAK, FAILS, DIVERGES = "compiles", "graph-break", "fails", "diverges"
FROZEN, FOLLOWS = "frozen", "follows"


@dataclass(frozen=True)
class CaptureTable:
    """The rows measured for one capture mode on one release, by row id."""

    rows: dict[str, dict[str, Any]]

    def verdict(self, row: str) -> tuple[str, str]:
        """The verdict of one row and its reason or detail (``("", "")`` for a row not measured)."""
        found = self.rows.get(row, {})
        return str(found.get("verdict", "")), str(found.get("reason", found.get("detail", "")))


@cache
def capture_rows(mode: str, release: str | None = None) -> dict[str, dict[str, Any]]:
    """The rows measured for capture ``mode`` (``bytecode`` or ``trace``) on the release nearest
    ``release`` (the newest without one); empty where none was measured."""
    releases = releases_with(mode)
    if not releases:
        return {}
    chosen = releases[-1] if release is None else nearest_release(releases, parse_release(release))
    rows: dict[str, dict[str, Any]] = json.loads((DATA / f"{mode}-{chosen}.json").read_text(encoding="utf-8"))["rows"]
    return rows
