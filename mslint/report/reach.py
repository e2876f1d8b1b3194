"""Which graph functions an entry reaches, and through which calls: the calls the semantic model
followed to find graph code (:attr:`CallMemo.calls`, recorded by :func:`graph_functions`)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from mslint.model.scope import GraphFunction


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
        self._calls = {
            key: [(callee, line) for callee, line in f.memo.calls.get(key, {}).items() if callee in self.functions]
            for key, f in self.functions.items()
        }

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
