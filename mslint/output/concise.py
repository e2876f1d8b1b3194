"""The concise report (ruff's ``concise``): one line per finding, then the summary of the text report."""

from __future__ import annotations

from mslint.diagnostics import Diagnostic
from mslint.output.text import header, summary_line


def render(diagnostics: list[Diagnostic], files: int, unreadable: int = 0, color: bool = False) -> str:
    return "".join(f"{header(d, color)}\n" for d in diagnostics) + summary_line(diagnostics, files, unreadable) + "\n"
