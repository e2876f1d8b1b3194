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
    pruned_in_all: dict[int, frozenset[int]] = {}
    for function in functions:
        is_construct = function.owner is not None and function.node.name == "construct"
        if not is_construct and function.entry.node is not function.node:
            continue
        key = id(function.node)
        pruned = function.pruned_nodes
        pruned_in_all[key] = pruned if key not in pruned_in_all else pruned_in_all[key] & pruned
    return frozenset().union(*pruned_in_all.values())
