"""The graph functions of a run, by module, by function and by the lines they span.

The engine evaluates a graph function once per entry, instance or call that reaches it (one
:class:`~mslint.model.scope.GraphFunction` each). What is said of a node on the module's text
alone (a module-wide rule's finding, a branch no graph holds) is said of the function around it,
through all its evaluations: this index groups them once per run, for the nodes that no graph
compiles (:mod:`mslint.model.never_compiled`) and for the findings of module-wide rules capped
under a constant test no evaluation decides (:mod:`mslint.findings_on_unknowns`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from pathlib import Path

from mslint.model.module import ModuleInfo
from mslint.model.scope import GraphFunction


class GraphFunctionIndex:
    """The evaluations of each graph function, grouped by function, by module and by line span."""

    def __init__(self, functions: Sequence[GraphFunction]) -> None:
        self._by_function: dict[int, list[GraphFunction]] = {}
        """By function node, in the order first evaluated: its evaluations."""
        self._by_module: dict[Path, list[list[GraphFunction]]] = {}
        """By module path: the evaluations of each of its graph functions."""
        self._spans: dict[Path, list[tuple[int, int]]] = {}
        """By module path: the first and last lines of each of its graph functions."""
        for function in functions:
            evaluations = self._by_function.get(id(function.node))
            if evaluations is None:
                evaluations = self._by_function[id(function.node)] = []
                node = function.node
                self._by_module.setdefault(function.module.path, []).append(evaluations)
                self._spans.setdefault(function.module.path, []).append((node.lineno, node.end_lineno or node.lineno))
            evaluations.append(function)

    def evaluations(self) -> Iterable[list[GraphFunction]]:
        """Each graph function's evaluations (never empty), in the order first evaluated."""
        return self._by_function.values()

    def spans(self, module: ModuleInfo) -> list[tuple[int, int]]:
        """The first and last lines of each graph function of ``module``."""
        return self._spans.get(module.path, [])

    def around(self, module: ModuleInfo, node: ast.AST) -> list[GraphFunction]:
        """The evaluations of the innermost graph function of ``module`` whose lines hold ``node``;
        none where no graph function holds it."""
        line = getattr(node, "lineno", None)
        if line is None:
            return []
        holding = [
            evaluations
            for evaluations in self._by_module.get(module.path, [])
            if evaluations[0].node.lineno <= line <= (evaluations[0].node.end_lineno or line)
        ]
        return min(holding, key=lambda e: (e[0].node.end_lineno or 0) - e[0].node.lineno, default=[])
