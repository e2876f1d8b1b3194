"""The nodes of Cell code that no graph the program compiles holds, or that an input's shape
the program does not show decides.

A ``construct`` (or an entry, a ``@jit`` function) runs only as the Cell's graph, or as its
Python in PyNative mode with the same constants. Where every evaluation of it prunes a branch (a
test on a graph constant that the compiler folds: :attr:`GraphFunction.pruned_nodes`), the
branch never runs, and what a rule finds there on the module's text alone (a keyword the release
lacks) does not hold either. Where the test is on numbers of an input's shape that no call shows
(:meth:`GraphFunction.shape_test_undecided`), it holds only for the shapes that take the branch.
"""

from __future__ import annotations

import ast

from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants


def never_compiled(functions: list[GraphFunction]) -> tuple[frozenset[int], frozenset[int]]:
    """Ids of the nodes that every evaluation of their Cell's ``construct`` or entry prunes; and
    of those that each evaluation prunes or holds under a test on shapes it does not know."""
    pruned_in_all: dict[int, frozenset[int]] = {}
    undecided_in_all: dict[int, frozenset[int]] = {}
    for function in functions:
        is_construct = function.owner is not None and function.node.name == "construct"
        if not is_construct and function.entry.node is not function.node:
            continue
        pruned = function.pruned_nodes
        undecided = _under_undecided_shape_tests(function) | pruned
        key = id(function.node)
        pruned_in_all[key] = pruned if key not in pruned_in_all else pruned_in_all[key] & pruned
        undecided_in_all[key] = undecided if key not in undecided_in_all else undecided_in_all[key] & undecided
    never = frozenset().union(*pruned_in_all.values())
    return never, frozenset().union(*undecided_in_all.values()) - never


def _under_undecided_shape_tests(function: GraphFunction) -> frozenset[int]:
    found: set[int] = set()
    for branch in descendants(function.node):
        if isinstance(branch, (ast.If, ast.IfExp)) and function.shape_test_undecided(branch):
            parts = [*branch.body, *branch.orelse] if isinstance(branch, ast.If) else [branch.body, branch.orelse]
            found.update(id(node) for part in parts for node in descendants(part))
    return frozenset(found)
