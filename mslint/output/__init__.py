"""Report formats: one module each, all rendering the same diagnostics."""

from __future__ import annotations

from pathlib import Path

from mslint.atomic_write import write_atomically
from mslint.diagnostics import Diagnostic
from mslint.discovery import UsageError
from mslint.output import concise, grouped, json_lines, json_list, statistics, text

FORMATS = ("text", "full", "concise", "grouped", "json", "json-lines", "junit", "sarif", "github", "gitlab")
"""``full`` is ``text`` (ruff's name for its report with the source lines)."""
SUMMARIZED = ("text", "full", "concise", "grouped")
"""The formats for people, which end with a summary line (``-q`` leaves it out)."""


def render(
    output_format: str,
    diagnostics: list[Diagnostic],
    files: int,
    unreadable: int = 0,
    options: text.TextOptions | None = None,
) -> str:
    """``files`` were checked, ``unreadable`` more could not be read (the text report says so);
    ``options``: what the reports for people show (fixes, colors)."""
    options = options or text.TextOptions()
    if output_format == "json":
        return json_list.render(diagnostics)
    if output_format == "json-lines":
        return json_lines.render(diagnostics)
    if output_format == "concise":
        return concise.render(diagnostics, files, unreadable, options.color)
    if output_format == "grouped":
        return grouped.render(diagnostics, files, unreadable, options.color)
    if output_format == "junit":
        from mslint.output import junit  # imports xml.etree: only when asked for

        return junit.render(diagnostics)
    if output_format == "sarif":
        from mslint.output import sarif  # reads package metadata: imported only when asked for

        return sarif.render(diagnostics)
    if output_format == "github":
        from mslint.output import github

        return github.render(diagnostics)
    if output_format == "gitlab":
        from mslint.output import gitlab

        return gitlab.render(diagnostics)
    return text.render_text(diagnostics, files, unreadable, options)


def render_statistics(output_format: str, diagnostics: list[Diagnostic]) -> str:
    if output_format == "json":
        return statistics.render_json(diagnostics)
    return statistics.render_text(diagnostics)


def write_output_file(path: Path, text: str) -> None:
    """``--output-file``: the report in ``path``, its folder created as ruff does."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text.encode("utf-8"))
    except OSError as error:
        raise UsageError(f"{path}: cannot write: {error.strerror or error}") from None
