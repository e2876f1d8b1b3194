"""The text report, for people: each finding with its source line, a caret span and the hint."""

from __future__ import annotations

from collections import Counter

from mslint.diagnostics import Diagnostic
from mslint.fingerprint import source_line
from mslint.output.fix_diffs import fix_lines


def render_text(diagnostics: list[Diagnostic], files: int, unreadable: int = 0, show_fixes: bool = False) -> str:
    """``path:line:col: CODE symbol message``, the source line with a caret span, the hint, and
    with ``show_fixes`` the fix as a diff."""
    blocks = [_text_block(d, show_fixes) for d in diagnostics]
    return "\n".join([*blocks, summary_line(diagnostics, files, unreadable)]) + "\n"


def summary_line(diagnostics: list[Diagnostic], files: int, unreadable: int = 0) -> str:
    """``Found N problems (...) in M files checked.``, or ``All checks passed! (M files checked)``."""
    counts = Counter(d.severity for d in diagnostics)
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    if not diagnostics and not unreadable:
        return f"All checks passed! ({checked})"
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in sorted(counts, reverse=True) if counts[s]]
    total = len(diagnostics)
    summary = f"Found {total} problem{'s' if total != 1 else ''}"
    if parts:
        summary += f" ({', '.join(parts)})"
    summary += f" in {checked}"
    if unreadable:  # never "All checks passed!" when some files could not be checked at all
        summary += f"; {unreadable} could not be read"
    return summary + "."


def header(diagnostic: Diagnostic) -> str:
    """``path:line:col: CODE symbol message``: a finding in one line."""
    return (
        f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: "
        f"{diagnostic.code} {diagnostic.symbol} {diagnostic.message}"
    )


def _text_block(diagnostic: Diagnostic, show_fixes: bool) -> str:
    first = header(diagnostic)
    source = _source_line(diagnostic.path, diagnostic.line)
    if source is None:
        return first
    gutter = " " * len(str(diagnostic.line))
    last = diagnostic.end_column if diagnostic.end_line == diagnostic.line else len(source) + 1
    width = max(1, last - diagnostic.column)
    lines = [
        first,
        f" {diagnostic.line} | {source}",
        f" {gutter} | {' ' * (diagnostic.column - 1)}{'^' * width} {diagnostic.severity}",
    ]
    if diagnostic.hint:
        lines.append(f" {gutter} = hint: {diagnostic.hint}")
    if show_fixes:
        lines.extend(fix_lines(diagnostic, gutter))
    return "\n".join(lines) + "\n"


def _source_line(path: str, line: int) -> str | None:
    text = source_line(path, line)
    return text.expandtabs(1) if text is not None else None
