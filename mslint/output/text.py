"""The text report, for people: each finding with its source line, a caret span and the hint."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from mslint.diagnostics import Diagnostic
from mslint.fingerprint import source_line
from mslint.output.color import paint
from mslint.output.fix_diffs import fix_lines


@dataclass(frozen=True)
class TextOptions:
    show_fixes: bool = False
    """Each fix as a diff under its finding (``--show-fixes`` without ``--fix``)."""
    color: bool = False


def render_text(
    diagnostics: list[Diagnostic], files: int, unreadable: int = 0, options: TextOptions = TextOptions()
) -> str:
    """``path:line:col: CODE symbol message``, the source line with a caret span, the hint, and
    the fix as the options say."""
    blocks = [_text_block(d, options) for d in diagnostics]
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


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def one_line(text: str) -> str:
    """``text`` with its control characters escaped as in Python (``\\n``, ``\\x1b``): a newline
    in a file name must not start a line of its own, which CI would read (``::error`` is a
    GitHub Actions command) or a terminal would act on."""
    return _CONTROL.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


def header(diagnostic: Diagnostic, color: bool = False) -> str:
    """``path:line:col: CODE symbol message``: a finding in one line."""
    rule = paint(f"{diagnostic.code} {diagnostic.symbol}", str(diagnostic.severity), color)
    where = f"{paint(one_line(diagnostic.path), 'bold', color)}:{diagnostic.place}"
    return f"{where}: {rule} {one_line(diagnostic.message)}"


def _text_block(diagnostic: Diagnostic, options: TextOptions) -> str:
    first = header(diagnostic, options.color)
    source = _source_line(diagnostic.path, diagnostic.line, diagnostic.cell)
    if source is None:
        return first
    gutter = " " * len(str(diagnostic.line))
    last = diagnostic.end_column if diagnostic.end_line == diagnostic.line else len(source) + 1
    width = max(1, last - diagnostic.column)
    lines = [
        first,
        f" {diagnostic.line} | {source}",
        f" {gutter} | {' ' * (diagnostic.column - 1)}"
        + paint(f"{'^' * width} {diagnostic.severity}", str(diagnostic.severity), options.color),
    ]
    if diagnostic.hint:
        lines.append(f" {gutter} {paint('= hint:', 'hint', options.color)} {one_line(diagnostic.hint)}")
    if options.show_fixes:
        lines.extend(fix_lines(diagnostic, gutter))
    return "\n".join(lines) + "\n"


def _source_line(path: str, line: int, cell: int | None) -> str | None:
    text = source_line(path, line, cell)
    return text.expandtabs(1) if text is not None else None
