"""What the report needs of the semantic model, as plain data: the graph entries, the graph
functions they reach and through which calls, and where each function and Cell class is.

The model does not depend on the syntax level: one analysis makes it for both.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from mslint.engine import Analysis
from mslint.model.building import building_functions
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.scope import CallMemo, entry_points
from mslint.report.reach import Call, CallGraph

Parents = dict[int, "tuple[int, int] | None"]
"""By function number: the function and line that call it first on the way from an entry."""


@dataclass(frozen=True)
class Function:
    name: str
    path: str
    line: int
    end_line: int
    """Its first line (its decorators included) and last line."""


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str
    """``cell`` (a Cell's ``construct``) or ``jit``."""
    function: int
    parents: Parents
    """Every function the entry reaches, itself included (with None)."""


@dataclass
class GraphScope:
    functions: list[Function]
    """The graph functions of the checked code, numbered."""
    entries: list[Entry]
    class_spans: list[tuple[str, int, int, int]]
    """Each Cell class with a ``construct`` entry: its file, first and last line, and the
    number of the ``construct``."""
    building_spans: list[tuple[str, int, int, int]]
    """Each function that building a Cell with a ``construct`` entry runs (its ``__init__``,
    the helpers that calls): its file, first and last line, and the number of the ``construct``."""

    def built_by(self, path: str, line: int) -> list[int]:
        """The ``construct`` entries whose Cell's building runs ``path:line``."""
        return sorted({n for start, end, n in self._building_by_path.get(path, ()) if start <= line <= end})

    @cached_property
    def _building_by_path(self) -> dict[str, list[tuple[int, int, int]]]:
        found: dict[str, list[tuple[int, int, int]]] = {}
        for path, start, end, number in self.building_spans:
            found.setdefault(path, []).append((start, end, number))
        return found

    def call_path(self, entry: Entry, function: int) -> list[Call]:
        """The calls from ``entry`` down to ``function``."""
        path: list[Call] = []
        step = entry.parents.get(function)
        while step is not None:
            caller, line = step
            path.append(Call(self.functions[caller].name, self.functions[caller].path, line))
            step = entry.parents.get(caller)
        return path[::-1]

    def locator(self) -> Locator:
        return Locator([(f.path, f.line, f.end_line, n) for n, f in enumerate(self.functions)], self.class_spans)


def graph_scope(analysis: Analysis) -> GraphScope:
    """The graph code of ``analysis``, as the rules saw it, in the checked files."""
    project, runs_pynative = analysis.project, analysis.graph.runs_pynative
    graph = CallGraph([f for f in analysis.graph.functions if f.module.checked])
    ordered = sorted(
        graph.functions, key=lambda k: (str(graph.functions[k].module.path), graph.functions[k].node.lineno)
    )
    numbers = {key: n for n, key in enumerate(ordered)}
    functions = []
    for key in ordered:
        function = graph.functions[key]
        functions.append(Function(function.ref.display_name, str(function.module.path), *span(function.node)))
    entries, classes, building = [], [], []
    memo = CallMemo()
    for ref in _entry_refs(project, runs_pynative, graph):
        number = numbers[id(ref.node)]
        reached = graph.reach(id(ref.node))
        parents = {numbers[k]: None if step is None else (numbers[step[0]], step[1]) for k, step in reached.items()}
        is_cell = ref.owner is not None and ref.node.name == "construct"
        entries.append(Entry(ref.display_name, "cell" if is_cell else "jit", number, parents))
        if is_cell and ref.owner is not None:
            classes.append((str(ref.module.path), *span(ref.owner.node), number))
            building += [
                (str(f.module.path), *span(f.node), number) for f in building_functions(project, ref.owner, memo)
            ]
    return GraphScope(functions, entries, classes, building)


def _entry_refs(project: Project, runs_pynative: Callable[[ClassRef], bool], graph: CallGraph) -> list[FunctionRef]:
    """Every entry of the checked code: Cell ``construct`` and ``@jit`` functions, once each."""
    found: dict[int, FunctionRef] = {}
    for module in list(project.checked_modules):
        for ref in entry_points(project, module, runs_pynative):
            if id(ref.node) in graph.functions:
                found.setdefault(id(ref.node), ref)
    return sorted(found.values(), key=lambda r: (str(r.module.path), r.node.lineno))


def span(node: ast.AST) -> tuple[int, int]:
    """First and last line of a function or class, its decorators included."""
    decorators = getattr(node, "decorator_list", [])
    start = min([getattr(node, "lineno", 1), *(d.lineno for d in decorators)])
    return start, getattr(node, "end_lineno", None) or start


class Locator:
    """The graph function a finding is in, by its file and line: the innermost one around it.
    A finding outside graph functions but in a Cell class with a ``construct`` entry (a plain
    list of Cells in ``__init__``, a missing ``super().__init__()``) belongs to that
    ``construct``: building the Cell is part of what its entry needs."""

    def __init__(self, functions: list[tuple[str, int, int, int]], classes: list[tuple[str, int, int, int]]) -> None:
        self._functions = _Spans(functions)
        self._classes = _Spans(classes)

    def function_of(self, path: str, line: int) -> tuple[int | None, bool]:
        """The function's number, and whether the finding is in its class rather than in it."""
        number = self._functions.innermost(path, line)
        if number is not None:
            return number, False
        number = self._classes.innermost(path, line)
        return number, number is not None


class _Spans:
    """Line spans of one file each, with a number: the innermost span around a line."""

    def __init__(self, spans: list[tuple[str, int, int, int]]) -> None:
        self._by_path: dict[str, list[tuple[int, int, int]]] = {}
        for path, start, end, number in spans:
            self._by_path.setdefault(path, []).append((start, end, number))
        for found in self._by_path.values():
            found.sort()

    def innermost(self, path: str, line: int) -> int | None:
        spans = self._by_path.get(path, [])
        # Spans nest or do not overlap: the last one starting at or before the line that still
        # covers it is the innermost.
        for start, end, number in reversed(spans[: bisect.bisect_right(spans, (line, float("inf"), 0))]):
            if start <= line <= end:
                return number
        return None
