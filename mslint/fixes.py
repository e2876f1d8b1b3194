"""Applying fixes to source text: ``check --fix`` and ``--diff``, with ruff's safety model.

Safe fixes keep the program's meaning and are applied by ``--fix``; unsafe ones only with
``--unsafe-fixes``. Fixes whose edits overlap an already chosen fix are left for the next
run, so a file is never garbled; applying the result again changes nothing. An edit that
several fixes share (the same import added) is made once.
"""

from __future__ import annotations

import difflib

from mslint.diagnostics import Diagnostic, Fix


def fixable(diagnostics: list[Diagnostic], unsafe: bool) -> list[Fix]:
    return [d.fix for d in diagnostics if d.fix and (unsafe or d.fix.applicability == "safe")]


def apply_fixes(source: str, fixes: list[Fix]) -> tuple[str, int]:
    """The source with the fixes applied, and how many were applied."""
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    chosen: list[tuple[int, int, str]] = []
    applied = 0
    for fix in fixes:
        spans = [
            (_offset(lines, starts, e.line, e.column), _offset(lines, starts, e.end_line, e.end_column), e)
            for e in fix.edits
        ]
        # An edit already chosen (the import two fixes both add) is shared, not a conflict.
        new = [(start, end, edit.content) for start, end, edit in spans if (start, end, edit.content) not in chosen]
        if any(
            _overlaps(start, end, other_start, other_end)
            for start, end, _ in new
            for other_start, other_end, _ in chosen
        ):
            continue
        chosen.extend(new)
        applied += 1
    for start, end, content in sorted(chosen, key=lambda span: (span[0], span[1]), reverse=True):
        source = source[:start] + content + source[end:]
    return source, applied


def _offset(lines: list[str], starts: list[int], line: int, column: int) -> int:
    """Character offset of a 1-based line and 1-based UTF-8 byte column."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return starts[min(line - 1, len(lines))] + len(text.encode("utf-8")[: column - 1].decode("utf-8", errors="ignore"))


def _overlaps(start: int, end: int, other_start: int, other_end: int) -> bool:
    if start == end and other_start == other_end:
        return start == other_start
    if start == end:
        return other_start <= start <= other_end
    if other_start == other_end:
        return start <= other_start <= end
    return start < other_end and other_start < end


def unified_diff(path: str, before: str, after: str) -> str:
    return "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), f"a/{path}", f"b/{path}"))
