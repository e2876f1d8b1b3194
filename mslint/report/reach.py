"""Which graph functions an entry reaches, and through which calls: the semantic model's own call
resolution (:meth:`GraphFunction.callees`, as :func:`graph_functions` follows it), kept as a graph."""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass

from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants


@dataclass(frozen=True)
class Call:
    """One step of a call path: ``caller`` calls the next function at ``path:line``."""

    caller: str
    path: str
    line: int


class CallGraph:
    """The graph functions of a project (by ``id`` of their node) and the calls between them."""

    def __init__(self, functions: list[GraphFunction]) -> None:
        self.functions = {id(f.node): f for f in functions}
        self._calls: dict[int, list[tuple[int, int]]] = {key: self._callees(f) for key, f in self.functions.items()}

    def _callees(self, function: GraphFunction) -> list[tuple[int, int]]:
        """The graph functions ``function`` calls, each with the line of its first call."""
        found: dict[int, int] = {}
        for node in descendants(function.node):
            if isinstance(node, ast.Call):
                for ref in function.callees(node):
                    if id(ref.node) in self.functions:
                        found.setdefault(id(ref.node), node.lineno)
        return list(found.items())

    def reach(self, entry: int) -> dict[int, tuple[int, int] | None]:
        """Every function ``entry`` reaches, with the caller and call line that first reach it
        (breadth first: a shortest call path); None for ``entry`` itself."""
        parents: dict[int, tuple[int, int] | None] = {entry: None}
        queue = deque([entry])
        while queue:
            caller = queue.popleft()
            for callee, line in self._calls.get(caller, ()):
                if callee not in parents:
                    parents[callee] = (caller, line)
                    queue.append(callee)
        return parents
