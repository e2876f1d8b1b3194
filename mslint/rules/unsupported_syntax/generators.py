"""Generators: a call of a function that uses ``yield``, and ``yield`` in a generator defined in graph code."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.project import FunctionNode
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants, own_nodes, statements
from mslint.rules.base import Finding
from mslint.rules.unsupported_syntax.syntax_rows import measured


def local_generator(node: ast.Yield | ast.YieldFrom, function: GraphFunction) -> Iterator[Finding]:
    """``yield`` in a function defined in graph code, where the syntax table finds it rejected: the
    compiler reports it there, not where the generator is called. So it does in a ``construct`` or
    an entry that yields itself: nothing in graph code calls it, the Cell or ``jit`` does."""
    own = node in own_nodes(function.node)
    if own and not _compiled_whole(function):
        return
    keyword = "yield" if isinstance(node, ast.Yield) else "yield from"
    yield from measured(
        node,
        f"`{keyword}` in `{function.node.name}`, a generator compiled as a graph"
        if own
        else f"`{keyword}` in a generator defined in graph code",
        f"expr.{type(node).__name__}/local-generator",
        function,
        hint="return a tuple or list instead, or iterate with a `for` over a range",
    )


def _compiled_whole(function: GraphFunction) -> bool:
    """An entry, or a Cell's ``construct``: compiled where the Cell or ``jit`` calls it, not at a
    call in graph code that :func:`generator_calls` would flag."""
    return function.entry.node is function.node or (function.owner is not None and function.node.name == "construct")


def generator_calls(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """A call of a generator function defined outside graph code: the compiler rejects it where it
    is called."""
    generator = called_generator(call, function)
    if generator is not None and generator not in descendants(function.node):  # else its ``yield`` is flagged
        yield Finding(
            call,
            f"`{generator.name}` is a generator (it uses `yield`): MindSpore rejects generators at every syntax level",
            hint="return a tuple or list instead, or iterate with a `for` over a range",
        )


def called_generator(call: ast.Call, function: GraphFunction) -> FunctionNode | None:
    """The generator function (one that ``yield``s) ``call`` calls, if any: one defined in
    ``function``, or one of the project's."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in function.local_names:
        local = [n for n in statements(function.node) if isinstance(n, ast.FunctionDef) and n.name == func.id]
        if local:
            return local[-1] if _yields(local[-1]) else None
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if name not in function.project.generator_names():
        return None
    return next((c.node for c in function.callees(call) if _yields(c.node)), None)


def _yields(function: FunctionNode) -> bool:
    return any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(function))
