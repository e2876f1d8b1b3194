"""The report's data: the findings at both syntax levels, and each graph entry with the findings
of every function it reaches, as one JSON document that every renderer reads."""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint import __version__
from mslint.diagnostics import Diagnostic, Severity
from mslint.engine import Report, check_files, collector_paused, load_project
from mslint.fingerprint import fingerprint
from mslint.report.entries import Entry, GraphScope, graph_scope
from mslint.report.status import LAX, LEVELS, STATUSES, STRICT, Severities, level_status
from mslint.rule_docs import documentation_link
from mslint.rules import rule_named
from mslint.settings import Settings

FORMAT = "mslint-report"
FORMAT_VERSION = 1

_Key = tuple[str, int, int, str]
"""A finding's identity within one run, as the engine keeps them apart: path, line, column, rule."""


@dataclass
class Analysis:
    report: Report
    """At LAX, the default level."""
    strict: list[Diagnostic]
    scope: GraphScope
    settings: Settings


def analyse(files: list[Path], settings: Settings) -> Analysis:
    """The findings at LAX and at STRICT, and the graph scope. A rule reports the same code at
    both levels, only the severity changes, but a finding keeps only the severity of its run: so
    the code is analysed twice, at the same time: STRICT in a second process, LAX here, where
    the graph scope is then taken from the model (the same at both levels)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from mslint.console import end_on_ctrl_c

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=end_on_ctrl_c) as pool:
        strict = pool.submit(check_files, files, settings.with_options(syntax_level=STRICT))
        report, scope = _lax_analysis(files, settings.with_options(syntax_level=LAX))
        return Analysis(report, strict.result().diagnostics, scope, settings)


def _lax_analysis(files: list[Path], settings: Settings) -> tuple[Report, GraphScope]:
    """The findings and the graph scope, with Python's cyclic garbage collector paused until the
    model is freed: the model makes millions of objects and no cycles to free, and a collection
    while it is alive scans them all (as the engine pauses it while it analyses)."""
    with collector_paused():
        project, report = load_project(files, settings)
        scope = graph_scope(project, settings)
        del project
    return report, scope


def readiness(analysis: Analysis, paths: list[Path]) -> dict[str, Any]:
    """The report of ``analysis``, for the checked ``paths``."""
    scope = analysis.scope
    findings = _findings(analysis.report.diagnostics, analysis.strict)
    locator = scope.locator()
    by_function: dict[int, list[int]] = {}
    findings_json = []
    for index, (diagnostic, severities) in enumerate(findings):
        number, class_level = locator.function_of(diagnostic.path, diagnostic.line)
        if number is not None:
            by_function.setdefault(number, []).append(index)
        findings_json.append(_finding_json(diagnostic, severities, number, class_level))
    entries_json = [_entry_json(entry, scope, by_function, findings) for entry in scope.entries]
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


def _findings(lax: list[Diagnostic], strict: list[Diagnostic]) -> list[tuple[Diagnostic, Severities]]:
    """Each finding once, with its severity at both levels (the LAX diagnostic where there is one)."""
    at_strict = {_key(d): d for d in strict}
    at_lax = {_key(d): d for d in lax}
    found = [(d, Severities(at_strict[k].severity if k in at_strict else None, d.severity)) for k, d in at_lax.items()]
    found += [(d, Severities(d.severity, None)) for k, d in at_strict.items() if k not in at_lax]
    return sorted(found, key=lambda pair: pair[0].sort_key)


def _key(diagnostic: Diagnostic) -> _Key:
    return (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.symbol)


def _finding_json(
    diagnostic: Diagnostic, severities: Severities, function: int | None, class_level: bool
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
        "fingerprint": fingerprint(diagnostic),
        "verdict": None,
        "new": None,
    }


def _text(severity: Severity | None) -> str | None:
    return None if severity is None else str(severity)


def _entry_json(
    entry: Entry, scope: GraphScope, by_function: dict[int, list[int]], findings: list[tuple[Diagnostic, Severities]]
) -> dict[str, Any]:
    reached = [i for number in entry.parents for i in by_function.get(number, [])]
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


def _summary(entries: list[dict[str, Any]], findings: list[dict[str, Any]]) -> dict[str, Any]:
    by_rule = Counter(f["symbol"] for f in findings)
    codes = {f["symbol"]: (f["code"], f["link"]) for f in findings}
    return {
        "entries": len(entries),
        "findings": len(findings),
        "outside_entries": sum(1 for f in findings if f["function"] is None),
        **{level: {s: sum(1 for e in entries if e[level]["status"] == s) for s in STATUSES[level]} for level in LEVELS},
        "by_rule": [
            {"symbol": symbol, "code": codes[symbol][0], "count": count, "link": codes[symbol][1]}
            for symbol, count in by_rule.most_common()
        ],
    }
