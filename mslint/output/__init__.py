"""Report formats: one module each, all rendering the same diagnostics."""

from __future__ import annotations

from mslint.diagnostics import Diagnostic
from mslint.output import json_list, statistics, text

FORMATS = ("text", "json", "sarif", "github", "gitlab")


def render(output_format: str, diagnostics: list[Diagnostic], files: int, unreadable: int = 0) -> str:
    """``files`` were checked, ``unreadable`` more could not be read (the text report says so)."""
    if output_format == "json":
        return json_list.render(diagnostics)
    if output_format == "sarif":
        from mslint.output import sarif  # reads package metadata: imported only when asked for

        return sarif.render(diagnostics)
    if output_format == "github":
        from mslint.output import github

        return github.render(diagnostics)
    if output_format == "gitlab":
        from mslint.output import gitlab

        return gitlab.render(diagnostics)
    return text.render_text(diagnostics, files, unreadable)


def render_statistics(output_format: str, diagnostics: list[Diagnostic]) -> str:
    if output_format == "json":
        return statistics.render_json(diagnostics)
    return statistics.render_text(diagnostics)
