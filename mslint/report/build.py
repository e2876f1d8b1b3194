"""The report's data: the findings at both syntax levels, and each graph entry with the findings
of every function it reaches, as one JSON document that every renderer reads."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint import __version__
from mslint.diagnostics import Diagnostic, Severities, Severity
from mslint.engine import Report, collector_paused, load_project
from mslint.fingerprint import fingerprint
from mslint.report.entries import Entry, GraphScope, graph_scope
from mslint.report.status import LAX, LEVELS, STATUSES, level_status
from mslint.rule_docs import documentation_link
from mslint.rules import rule_named
from mslint.settings import Settings

FORMAT = "mslint-report"
FORMAT_VERSION = 2
"""2: an entry without findings is ``no-finding``, ``compiles`` only where verify compiled it
(version 1 said ``compiles`` for both)."""


@dataclass
class Analysis:
    report: Report
    """At LAX, the default level; each finding has its severity at both levels."""
    scope: GraphScope
    settings: Settings


def analyse(files: list[Path], settings: Settings) -> Analysis:
    """The findings, as ``mslint check`` finds them, and the graph scope the rules saw, from one
    analysis. Python's cyclic garbage collector stays paused until the model is freed: the model
    makes millions of objects and no cycles to free, and a collection while it is alive scans
    them all (as the engine pauses it while it analyses)."""
    settings = settings.with_options(syntax_level=LAX)
    with collector_paused():
        analysis = load_project(files, settings)
        report, scope = analysis.report, graph_scope(analysis)
        del analysis
    return Analysis(report, scope, settings)


def readiness(analysis: Analysis, paths: list[Path]) -> dict[str, Any]:
    """The report of ``analysis``, for the checked ``paths``."""
    scope = analysis.scope
    findings = [(d, _severities(d)) for d in analysis.report.diagnostics]
    locator = scope.locator()
    by_function: dict[int, list[int]] = {}
    building: dict[int, list[int]] = {}
    findings_json = []
    for index, (diagnostic, severities) in enumerate(findings):
        number, class_level = locator.function_of(diagnostic.path, diagnostic.line)
        if number is not None:
            by_function.setdefault(number, []).append(index)
        built_by = scope.built_by(diagnostic.path, diagnostic.line)
        for construct in built_by:
            building.setdefault(construct, []).append(index)
        findings_json.append(_finding_json(diagnostic, severities, number, class_level, built_by))
    entries_json = [_entry_json(entry, scope, by_function, building, findings) for entry in scope.entries]
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "mslint": __version__,
        "paths": [str(p) for p in paths],
        "root": _common_folder(paths),
        "files": analysis.report.files,
        "target": analysis.settings.target,
        "unreadable": analysis.report.unreadable,
        "summary": _summary(entries_json, findings_json),
        "entries": entries_json,
        "findings": findings_json,
        "functions": [
            {"name": f.name, "path": f.path, "line": f.line, "end_line": f.end_line} for f in scope.functions
        ],
        "compare": None,
    }


def _common_folder(paths: list[Path]) -> str:
    """The folder around every path given: the page shows files relative to it."""
    folders = [str(p if p.is_dir() else p.parent) for p in paths]
    try:
        return os.path.commonpath(folders)
    except ValueError:  # absolute and relative paths mixed, or paths on different drives
        return ""


def _severities(diagnostic: Diagnostic) -> Severities:
    """Its severity at both levels, as the analysis gave them (a diagnostic without them, read
    back from elsewhere, has only this run's level, LAX)."""
    return diagnostic.severities or Severities(None, diagnostic.severity)


def _finding_json(
    diagnostic: Diagnostic, severities: Severities, function: int | None, class_level: bool, built_by: list[int]
) -> dict[str, Any]:
    rule = rule_named(diagnostic.symbol)
    return {
        "path": diagnostic.path,
        "line": diagnostic.line,
        "column": diagnostic.column,
        "end_line": diagnostic.end_line,
        "end_column": diagnostic.end_column,
        "code": diagnostic.code,
        "symbol": diagnostic.symbol,
        "severity": {level: _text(severities.at(level)) for level in LEVELS},
        "falls_back": severities.falls_back,
        "message": diagnostic.message,
        "hint": diagnostic.hint,
        "link": documentation_link(rule) if rule is not None else None,
        "function": function,
        "in_class": class_level,
        "building": built_by,
        "fingerprint": fingerprint(diagnostic),
        "verdict": None,
        "new": None,
    }


def _text(severity: Severity | None) -> str | None:
    return None if severity is None else str(severity)


def _entry_json(
    entry: Entry,
    scope: GraphScope,
    by_function: dict[int, list[int]],
    building: dict[int, list[int]],
    findings: list[tuple[Diagnostic, Severities]],
) -> dict[str, Any]:
    """The entry, with the findings of every function it reaches and of building its Cell."""
    reached = sorted(
        {i for number in entry.parents for i in by_function.get(number, [])} | {*building.get(entry.function, [])}
    )
    located = [(findings[i][0].path, findings[i][0].line, findings[i][1]) for i in reached]
    statuses = {level: level_status(located, level) for level in LEVELS}
    function = scope.functions[entry.function]
    return {
        "id": f"{function.path}::{entry.name}",
        "name": entry.name,
        "kind": entry.kind,
        "path": function.path,
        "folder": str(Path(function.path).parent),
        "line": function.line,
        "end_line": function.end_line,
        "function": entry.function,
        **{level: {"status": s.status, "lines": s.lines} for level, s in statuses.items()},
        "rules": dict(Counter(findings[i][0].symbol for i in reached).most_common()),
        "findings": sorted(reached),
        "reached": sorted(n for n in entry.parents if n != entry.function),
        "call_paths": [
            {
                "function": number,
                "via": [{"caller": c.caller, "path": c.path, "line": c.line} for c in scope.call_path(entry, number)],
            }
            for number in sorted(entry.parents)
            if number != entry.function and number in by_function
        ],
        "verified": None,
        "change": None,
    }


def level_counts(entries: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """By level, the number of entries of each status."""
    return {level: {s: sum(1 for e in entries if e[level]["status"] == s) for s in STATUSES[level]} for level in LEVELS}


def _summary(entries: list[dict[str, Any]], findings: list[dict[str, Any]]) -> dict[str, Any]:
    by_rule = Counter(f["symbol"] for f in findings)
    codes = {f["symbol"]: (f["code"], f["link"]) for f in findings}
    return {
        "entries": len(entries),
        "findings": len(findings),
        "outside_entries": sum(1 for f in findings if f["function"] is None and not f["building"]),
        **level_counts(entries),
        "by_rule": [
            {"symbol": symbol, "code": codes[symbol][0], "count": count, "link": codes[symbol][1]}
            for symbol, count in by_rule.most_common()
        ],
    }
