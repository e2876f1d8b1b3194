"""Facts computed once per syntax-tree node, kept exactly as long as the tree.

The analysis asks the same questions of the same functions and modules many times (each call
evaluated for what it returns reads its callee's bindings again). One :class:`NodeMemo` per kind
of fact remembers the answers, keyed weakly by the node: nothing is written on the tree, and an
answer goes when its node does. An answer must hold only nodes at or below its own node (never
the node itself or those above it), or it would keep its tree alive.
"""

from __future__ import annotations

import ast
import weakref
from collections.abc import Callable
from typing import Any, Generic, TypeVar

Node = TypeVar("Node", bound=ast.AST)
Fact = TypeVar("Fact")


class NodeMemo(Generic[Node, Fact]):
    """One kind of fact, by node."""

    __slots__ = ("_facts",)

    def __init__(self) -> None:
        self._facts: weakref.WeakKeyDictionary[Node, Fact] = weakref.WeakKeyDictionary()
        _MEMOS.append(self)

    def __call__(self, node: Node, compute: Callable[[Node], Fact]) -> Fact:
        """The fact of ``node``, computed by ``compute(node)`` the first time it is asked for."""
        try:
            return self._facts[node]
        except KeyError:
            fact = self._facts[node] = compute(node)
            return fact

    def get(self, node: Node) -> Fact | None:
        return self._facts.get(node)

    def put(self, node: Node, fact: Fact) -> None:
        self._facts[node] = fact

    def __len__(self) -> int:
        return len(self._facts)


_MEMOS: list[NodeMemo[Any, Any]] = []


def facts_kept() -> int:
    """How many facts every memo holds: none once the trees are gone (the tests check it)."""
    return sum(len(memo) for memo in _MEMOS)
