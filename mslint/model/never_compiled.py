"""The nodes of Cell code that no graph the program compiles holds.

A ``construct`` (or an entry, a ``@jit`` function) runs only as the Cell's graph, or as its
Python in PyNative mode with the same constants. Where every evaluation of it prunes a branch (a
test on a graph constant that the compiler folds: :attr:`GraphFunction.pruned_nodes`), the
branch never runs, and what a rule finds there on the module's text alone (a keyword the release
lacks) does not hold either.
"""

from __future__ import annotations

from mslint.model.scope import GraphFunction


def never_compiled(functions: list[GraphFunction]) -> frozenset[int]:
    """Ids of the nodes that every evaluation of their Cell's ``construct`` or entry prunes."""
    by_node: dict[int, frozenset[int]] = {}
    for function in functions:
        is_construct = function.owner is not None and function.node.name == "construct"
        if not is_construct and function.entry.node is not function.node:
            continue
        pruned = function.pruned_nodes
        known = by_node.get(id(function.node))
        by_node[id(function.node)] = pruned if known is None else known & pruned
    return frozenset().union(*by_node.values())
