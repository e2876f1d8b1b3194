"""Applying fixes to source text: ``check --fix`` and ``--diff``, with ruff's safety model.

Safe fixes keep the program's meaning and are applied by ``--fix``; unsafe ones only with
``--unsafe-fixes``. Fixes whose edits overlap an already chosen fix are left for the next
run, so a file is never garbled; applying the result again changes nothing. An edit that
several fixes share (the same import added) is made once. Every line keeps its own ending
(``\r\n``, ``\n`` or ``\r``); a line a fix adds takes the ending of the line it is added to.
"""

from __future__ import annotations

import difflib
from collections import Counter

from mslint.diagnostics import Diagnostic, Edit, Fix
from mslint.source import LINE_END, split_lines


def fixable(diagnostics: list[Diagnostic], unsafe: bool) -> list[Fix]:
    return [d.fix for d in diagnostics if d.fix and (unsafe or d.fix.applicability == "safe")]


def apply_fixes(source: str, fixes: list[Fix]) -> tuple[str, int]:
    """The source with the fixes applied, and how many were applied."""
    lines = split_lines(source)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    usual_ending = _usual_ending(lines)
    chosen: list[tuple[int, int, str]] = []
    applied = 0
    for fix in fixes:
        spans = [
            (
                _offset(lines, starts, e.line, e.column),
                _offset(lines, starts, e.end_line, e.end_column),
                _content(lines, e, usual_ending),
            )
            for e in fix.edits
        ]
        # An edit already chosen (the import two fixes both add) is shared, not a conflict.
        new = [span for span in spans if span not in chosen]
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
    """Character offset of a 1-based line and 1-based UTF-8 byte column; a column past the
    line's text is past its ending, whatever its length."""
    if not 0 < line <= len(lines):
        return starts[min(max(line - 1, 0), len(lines))]
    text = _without_ending(lines[line - 1]).encode("utf-8")
    if column - 1 > len(text):
        return starts[line]
    return starts[line - 1] + len(text[: column - 1].decode("utf-8", errors="ignore"))


def _content(lines: list[str], edit: Edit, usual_ending: str) -> str:
    """The edit's text, its line ends those of the line it is made on."""
    line = lines[edit.line - 1] if 0 < edit.line <= len(lines) else ""
    ending = line[len(_without_ending(line)) :] or usual_ending
    return LINE_END.sub(ending, edit.content)


def _usual_ending(lines: list[str]) -> str:
    endings = Counter(line[len(_without_ending(line)) :] for line in lines)
    endings.pop("", None)
    return endings.most_common(1)[0][0] if endings else "\n"


def _without_ending(line: str) -> str:
    return line.rstrip("\r\n")


def _overlaps(start: int, end: int, other_start: int, other_end: int) -> bool:
    if start == end and other_start == other_end:
        return start == other_start
    if start == end:
        return other_start <= start <= other_end
    if other_start == other_end:
        return start <= other_start <= end
    return start < other_end and other_start < end


def unified_diff(path: str, before: str, after: str) -> str:
    """The change as a unified diff, line endings included: exactly what is written."""
    diff = difflib.unified_diff(split_lines(before), split_lines(after), f"a/{path}", f"b/{path}")
    return "".join(line if line.endswith(("\n", "\r")) else f"{line}\n\\ No newline at end of file\n" for line in diff)
