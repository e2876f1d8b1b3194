"""The grouped report (ruff's ``grouped``): each file's name once, then its findings one a line
(``  line:col: CODE symbol message``), then the summary of the text report."""

from __future__ import annotations

from itertools import groupby

from mslint.diagnostics import Diagnostic
from mslint.output.color import paint
from mslint.output.text import one_line, summary_line


def render(diagnostics: list[Diagnostic], files: int, unreadable: int = 0, color: bool = False) -> str:
    blocks = []
    for path, found in groupby(diagnostics, key=lambda d: d.path):  # sorted by path already
        lines = [f"{paint(one_line(path), 'bold', color)}:"]
        for diagnostic in found:
            rule = paint(f"{diagnostic.code} {diagnostic.symbol}", str(diagnostic.severity), color)
            lines.append(f"  {diagnostic.place}: {rule} {one_line(diagnostic.message)}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join([*blocks, summary_line(diagnostics, files, unreadable)]) + "\n"
