"""The report's data: the code analysed at both syntax levels, each graph entry with the findings
of every function it reaches, as one JSON document that every renderer reads."""

from __future__ import annotations

import ast
import bisect
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint import __version__
from mslint.diagnostics import Diagnostic, Severity
from mslint.engine import Report, check_files, load_project, pynative_cells
from mslint.fingerprint import fingerprint
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.scope import entry_points, graph_functions
from mslint.report.reach import CallGraph
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
    project: Project
    """The project as analysed at LAX (the model is the same at both levels)."""
    report: Report
    strict: list[Diagnostic]
    settings: Settings


def analyse(files: list[Path], settings: Settings) -> Analysis:
    """The findings at LAX and at STRICT. A rule reports the same code at both levels, only the
    severity changes, but a finding keeps only the severity of its run: so the code is analysed
    twice, STRICT in a second process while this one analyses LAX and keeps the model."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
        strict = pool.submit(check_files, files, settings.with_options(syntax_level=STRICT))
        project, report = load_project(files, settings.with_options(syntax_level=LAX))
        return Analysis(project, report, strict.result().diagnostics, settings)


def readiness(analysis: Analysis, paths: list[Path]) -> dict[str, Any]:
    """The report of ``analysis``, for the checked ``paths``."""
    project, settings = analysis.project, analysis.settings.with_options(syntax_level=LAX)
    runs_pynative = pynative_cells(project, settings)
    graph = CallGraph([f for f in graph_functions(project, runs_pynative) if f.module.checked])
    functions = _FunctionTable(graph)
    entries = _entries(project, runs_pynative, graph)
    findings = _findings(analysis.report.diagnostics, analysis.strict)
    locator = _Locator(graph, entries)
    by_function: dict[int, list[int]] = {}
    findings_json = []
    for index, (diagnostic, severities) in enumerate(findings):
        key, class_level = locator.function_of(diagnostic)
        if key is not None:
            by_function.setdefault(key, []).append(index)
        findings_json.append(_finding_json(diagnostic, severities, functions.index(key), class_level))
    entries_json = [_entry_json(ref, graph, functions, by_function, findings) for ref in entries]
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "mslint": __version__,
        "paths": [str(p) for p in paths],
        "root": _common_folder(paths),
        "files": analysis.report.files,
        "target": settings.target,
        "unreadable": analysis.report.unreadable,
        "summary": _summary(entries_json, findings_json),
        "entries": entries_json,
        "findings": findings_json,
        "functions": functions.rows,
        "compare": None,
    }


def _common_folder(paths: list[Path]) -> str:
    """The folder around every path given: the page shows files relative to it."""
    folders = [str(p if p.is_dir() else p.parent) for p in paths]
    try:
        return os.path.commonpath(folders)
    except ValueError:  # absolute and relative paths mixed, or paths on different drives
        return ""


def _entries(project: Project, runs_pynative: Callable[[ClassRef], bool], graph: CallGraph) -> list[FunctionRef]:
    """Every entry of the checked code: Cell ``construct`` and ``@jit`` functions, once each."""
    found: dict[int, FunctionRef] = {}
    for module in list(project.checked_modules):
        for ref in entry_points(project, module, runs_pynative):
            if id(ref.node) in graph.functions:
                found.setdefault(id(ref.node), ref)
    return sorted(found.values(), key=lambda r: (str(r.module.path), r.node.lineno))


def _findings(lax: list[Diagnostic], strict: list[Diagnostic]) -> list[tuple[Diagnostic, Severities]]:
    """Each finding once, with its severity at both levels (the LAX diagnostic where there is one)."""
    at_strict = {_key(d): d for d in strict}
    at_lax = {_key(d): d for d in lax}
    found = [(d, Severities(at_strict[k].severity if k in at_strict else None, d.severity)) for k, d in at_lax.items()]
    found += [(d, Severities(d.severity, None)) for k, d in at_strict.items() if k not in at_lax]
    return sorted(found, key=lambda pair: pair[0].sort_key)


def _key(diagnostic: Diagnostic) -> _Key:
    return (diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.symbol)


class _FunctionTable:
    """The graph functions of the checked code, numbered in the report's ``functions`` list."""

    def __init__(self, graph: CallGraph) -> None:
        self.rows: list[dict[str, Any]] = []
        self._numbers: dict[int, int] = {}
        ordered = sorted(graph.functions.items(), key=lambda item: (str(item[1].module.path), item[1].node.lineno))
        for key, function in ordered:
            self._numbers[key] = len(self.rows)
            start, end = _span(function.node)
            self.rows.append(
                {"name": function.ref.display_name, "path": str(function.module.path), "line": start, "end_line": end}
            )

    def index(self, key: int | None) -> int | None:
        return None if key is None else self._numbers[key]


def _span(node: ast.AST) -> tuple[int, int]:
    """First and last line of a function or class, its decorators included."""
    decorators = getattr(node, "decorator_list", [])
    start = min([getattr(node, "lineno", 1), *(d.lineno for d in decorators)])
    return start, getattr(node, "end_lineno", None) or start


class _Locator:
    """The graph function a finding is in, by its file and line: the innermost one around it.
    A finding outside graph functions but in a Cell class with a ``construct`` entry (a plain
    list of Cells in ``__init__``, a missing ``super().__init__()``) belongs to that
    ``construct``: building the Cell is part of what its entry needs."""

    def __init__(self, graph: CallGraph, entries: list[FunctionRef]) -> None:
        self._functions = _Spans((str(f.module.path), *_span(f.node), key) for key, f in graph.functions.items())
        self._classes = _Spans(
            (str(ref.module.path), *_span(ref.owner.node), id(ref.node))
            for ref in entries
            if ref.owner is not None and ref.node.name == "construct"
        )

    def function_of(self, diagnostic: Diagnostic) -> tuple[int | None, bool]:
        """The function's key, and whether the finding is in its class rather than in it."""
        key = self._functions.innermost(diagnostic.path, diagnostic.line)
        if key is not None:
            return key, False
        key = self._classes.innermost(diagnostic.path, diagnostic.line)
        return key, key is not None


class _Spans:
    """Line spans of one file each, with a key: the innermost span around a line."""

    def __init__(self, spans: Iterable[tuple[str, int, int, int]]) -> None:
        self._by_path: dict[str, list[tuple[int, int, int]]] = {}
        for path, start, end, key in spans:
            self._by_path.setdefault(path, []).append((start, end, key))
        for found in self._by_path.values():
            found.sort()

    def innermost(self, path: str, line: int) -> int | None:
        spans = self._by_path.get(path, [])
        # Spans nest or do not overlap: the last one starting at or before the line that still
        # covers it is the innermost.
        for start, end, key in reversed(spans[: bisect.bisect_right(spans, (line, float("inf"), 0))]):
            if start <= line <= end:
                return key
        return None


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
    ref: FunctionRef,
    graph: CallGraph,
    functions: _FunctionTable,
    by_function: dict[int, list[int]],
    findings: list[tuple[Diagnostic, Severities]],
) -> dict[str, Any]:
    key = id(ref.node)
    parents = graph.reach(key)
    reached = [i for k in parents for i in by_function.get(k, [])]
    located = [(findings[i][0].path, findings[i][0].line, findings[i][1]) for i in reached]
    statuses = {level: level_status(located, level) for level in LEVELS}
    path = str(ref.module.path)
    start, end = _span(ref.node)
    return {
        "id": f"{path}::{ref.display_name}",
        "name": ref.display_name,
        "kind": "cell" if ref.owner is not None and ref.node.name == "construct" else "jit",
        "path": path,
        "folder": str(Path(path).parent),
        "line": start,
        "end_line": end,
        "function": functions.index(key),
        **{level: {"status": s.status, "lines": s.lines} for level, s in statuses.items()},
        "rules": dict(Counter(findings[i][0].symbol for i in reached).most_common()),
        "findings": sorted(reached),
        "reached": sorted(functions.index(k) for k in parents if k != key),
        "call_paths": [
            {
                "function": functions.index(k),
                "via": [{"caller": c.caller, "path": c.path, "line": c.line} for c in graph.call_path(parents, k)],
            }
            for k in parents
            if k != key and k in by_function
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
