"""The nodes of Cell code that no graph the program compiles holds.

A ``construct`` (or an entry, a ``@jit`` function) runs only as the Cell's graph, or as its
Python in PyNative mode with the same constants; so does a helper that only graph code names
(``remove_head(p, x, ISTRAIN)`` in ``construct``, nothing else referring to ``remove_head``).
Where every evaluation of such a function prunes a branch (a test on a graph constant that the
compiler folds: :attr:`GraphFunction.pruned_nodes`), the branch never runs, and what a rule finds
there on the module's text alone (a keyword the release lacks) does not hold either.
"""

from __future__ import annotations

import ast

from mslint.model.graph_index import GraphFunctionIndex
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.scope import GraphFunction


def never_compiled(index: GraphFunctionIndex, project: Project) -> frozenset[int]:
    """Ids of the nodes that every evaluation of a graph-only function prunes (module doc)."""
    never: set[int] = set()
    for evaluations in index.evaluations():
        pruned = frozenset.intersection(*(function.pruned_nodes for function in evaluations))
        function = evaluations[-1]
        is_construct = function.owner is not None and function.node.name == "construct"
        graph_only = is_construct or function.entry.node is function.node
        if pruned and (graph_only or not _named_outside_graph(function, project, index)):
            never |= pruned
    return frozenset(never)


def _named_outside_graph(function: GraphFunction, project: Project, index: GraphFunctionIndex) -> bool:
    """Whether any code but graph functions names ``function`` (a call or a reference): it may then
    run as Python, with values the graph's constants say nothing of."""
    name = function.node.name
    return any(_names_outside(module, name, index.spans(module)) for module in project.modules)


def _names_outside(module: ModuleInfo, name: str, spans: list[tuple[int, int]]) -> bool:
    names = [n for n in module.nodes_of(ast.Name) if n.id == name]
    attributes = [n for n in module.nodes_of(ast.Attribute) if n.attr == name]
    return any(not any(first <= n.lineno <= last for first, last in spans) for n in (*names, *attributes))
