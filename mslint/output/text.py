"""The text report, for people: each finding with its source line, a caret span and the hint."""

from __future__ import annotations

import re
from collections import Counter

from mslint.diagnostics import Diagnostic
from mslint.fingerprint import source_line


def render_text(diagnostics: list[Diagnostic], files: int, unreadable: int = 0) -> str:
    """``path:line:col: CODE symbol message``, the source line with a caret span, and the hint."""
    blocks = [_text_block(d) for d in diagnostics]
    counts = Counter(d.severity for d in diagnostics)
    checked = f"{files} file{'s' if files != 1 else ''} checked"
    if not diagnostics and not unreadable:
        blocks.append(f"All checks passed! ({checked})")
    else:
        parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in sorted(counts, reverse=True) if counts[s]]
        total = len(diagnostics)
        summary = f"Found {total} problem{'s' if total != 1 else ''}"
        if parts:
            summary += f" ({', '.join(parts)})"
        summary += f" in {checked}"
        if unreadable:  # never "All checks passed!" when some files could not be checked at all
            summary += f"; {unreadable} could not be read"
        blocks.append(summary + ".")
    return "\n".join(blocks) + "\n"


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with its control characters escaped as in Python (``\\n``, ``\\x1b``): a newline
    in a file name must not start a line of its own, which CI would read (``::error`` is a
    GitHub Actions command) or a terminal would act on."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


def _text_block(diagnostic: Diagnostic) -> str:
    header = one_line(
        f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}: "
        f"{diagnostic.code} {diagnostic.symbol} {diagnostic.message}"
    )
    source = _source_line(diagnostic.path, diagnostic.line)
    if source is None:
        return header
    gutter = " " * len(str(diagnostic.line))
    last = diagnostic.end_column if diagnostic.end_line == diagnostic.line else len(source) + 1
    width = max(1, last - diagnostic.column)
    lines = [
        header,
        f" {diagnostic.line} | {source}",
        f" {gutter} | {' ' * (diagnostic.column - 1)}{'^' * width} {diagnostic.severity}",
    ]
    if diagnostic.hint:
        lines.append(f" {gutter} = hint: {one_line(diagnostic.hint)}")
    return "\n".join(lines) + "\n"


def _source_line(path: str, line: int) -> str | None:
    text = source_line(path, line)
    return text.expandtabs(1) if text is not None else None
