"""Renderers of a report: text for people, JSON for tools."""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

from mslint.diagnostics import Diagnostic, Severity


def render_text(diagnostics: list[Diagnostic], files: int) -> str:
    """``path:line:col: CODE symbol message``, the source line with a caret span, and the hint."""
    blocks = [_text_block(d) for d in diagnostics]
    counts = Counter(d.severity for d in diagnostics)
    if not diagnostics:
        blocks.append(f"All checks passed! ({files} file{'s' if files != 1 else ''} checked)")
    else:
        parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in sorted(counts, reverse=True) if counts[s]]
        total = len(diagnostics)
        blocks.append(
            f"Found {total} problem{'s' if total != 1 else ''} ({', '.join(parts)}) "
            f"in {files} file{'s' if files != 1 else ''} checked."
        )
    return "\n".join(blocks) + "\n"


def _text_block(diagnostic: Diagnostic) -> str:
    header = (
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
        lines.append(f" {gutter} = hint: {diagnostic.hint}")
    return "\n".join(lines) + "\n"


def _source_line(path: str, line: int) -> str | None:
    lines = _file_lines(path)
    return lines[line - 1].expandtabs(1) if 0 < line <= len(lines) else None


@lru_cache(maxsize=64)
def _file_lines(path: str) -> list[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def render_json(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2) + "\n"


def worst(diagnostics: list[Diagnostic]) -> Severity | None:
    return max((d.severity for d in diagnostics), default=None)
