"""``mslint report``: analyse, add the verifier's results and the trend, render."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint.report import html, markdown
from mslint.report.build import analyse, readiness
from mslint.report.status import COUNTED, LEVELS, counted
from mslint.report.trend import add_trend, read_previous_report
from mslint.report.verified import add_verify_results, read_verify_results
from mslint.settings import Settings


@dataclass
class ReportRequest:
    paths: list[Path]
    files: list[Path]
    output_format: str
    verify_results: Path | None = None
    compare: Path | None = None


@dataclass
class Written:
    text: str
    document: dict[str, Any]
    unreadable: list[str]


def make_report(request: ReportRequest, settings: Settings) -> Written:
    """The report of ``request.files``. The files it reads besides the code are read first, so that
    a wrong one stops the command before the analysis."""
    results = read_verify_results(request.verify_results) if request.verify_results else None
    previous = read_previous_report(request.compare) if request.compare else None
    analysis = analyse(request.files, settings)
    document = readiness(analysis, request.paths)
    if results is not None:
        add_verify_results(document, results)
    if previous is not None and request.compare is not None:
        add_trend(document, previous, str(request.compare))
    return Written(render(request.output_format, document), document, analysis.report.unreadable)


def render(output_format: str, document: dict[str, Any]) -> str:
    if output_format == "json":
        return json.dumps(document, indent=1) + "\n"
    if output_format == "markdown":
        return markdown.render(document)
    return html.render(document)


def summary_line(document: dict[str, Any]) -> str:
    """One line for the terminal: the entries by status at each level."""
    summary = document["summary"]
    levels = "; ".join(
        f"{level.upper()} " + ", ".join(f"{n} {COUNTED[s]}" for s, n in summary[level].items() if n) for level in LEVELS
    )
    return counted(summary["entries"], document["files"]) + (f": {levels}" if summary["entries"] else "")
