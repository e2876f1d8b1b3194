"""Whether a call's written arguments can bind a function's parameters, as Python binds them.

MindSpore binds them the same way: a Cell called from Python in GRAPH_MODE checks the count of
its positional arguments against ``construct`` (``Cell._check_construct_args``) and binds its
keywords with ``inspect.Signature.bind``; the graph compiler refuses a call in graph code whose
arguments do not fill the callee's parameters one for one (measured on MindSpore 2.10: too many,
too few, an unknown keyword, a keyword-only parameter left out).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from mslint.model.abstract import AbstractSequence, AbstractValue
from mslint.model.binder import spreads
from mslint.model.project import FunctionNode


def mismatch(call: ast.Call, function: FunctionNode, bound: bool) -> str | None:
    """Why ``call`` cannot bind ``function``'s parameters (``passes 2 positional arguments; it
    takes 1``), ``bound``: the call passes the first one itself, as a method called on an object
    does; None where it can, or where it spreads arguments (``f(*args)``, ``f(**options)``) whose
    number is not written."""
    if spreads(call):
        return None
    arguments = function.args
    positional = [a.arg for a in (*arguments.posonlyargs, *arguments.args)][1 if bound else 0 :]
    required = positional[: len(positional) - len(arguments.defaults)]
    given = len(call.args)
    if given > len(positional) and arguments.vararg is None:
        most = "" if len(required) == len(positional) else "at most "
        return f"passes {given} positional argument{_s(given)}; it takes {most}{len(positional)}"
    keywords = [k.arg for k in call.keywords if k.arg is not None]
    keyword_only = [a.arg for a in arguments.kwonlyargs]
    for keyword in keywords:
        if keyword in positional[:given]:
            return f"passes `{keyword}` by position and by keyword"
        if keyword not in positional and keyword not in keyword_only and arguments.kwarg is None:
            return f"passes the keyword `{keyword}`, which it has no parameter for"
    missing = [name for name in required[given:] if name not in keywords]
    missing += [
        a.arg
        for a, default in zip(arguments.kwonlyargs, arguments.kw_defaults)
        if default is None and a.arg not in keywords
    ]
    if missing:
        names = ", ".join(f"`{name}`" for name in missing)
        return f"leaves out {names}, which {'has' if len(missing) == 1 else 'have'} no default"
    return None


def spreads_written_out(call: ast.Call, value: Callable[[ast.expr], AbstractValue]) -> ast.Call:
    """``call`` with each ``*args`` whose value is a tuple of a known length (``args = (x, y)``)
    written out as its items (``args[0], args[1]``), where every one is so and nothing spreads
    keywords; ``call`` itself otherwise (a list may grow in place). The call made lives only for
    counting: never memoised by id."""
    if not spreads(call) or any(k.arg is None for k in call.keywords):
        return call
    arguments: list[ast.expr] = []
    for argument in call.args:
        if not isinstance(argument, ast.Starred):
            arguments.append(argument)
            continue
        spread = value(argument.value)
        if not isinstance(spread, AbstractSequence) or spread.type != "tuple" or spread.items is None:
            return call
        items = range(len(spread.items))
        arguments += [
            ast.copy_location(ast.Subscript(argument.value, ast.Constant(i), ast.Load()), argument) for i in items
        ]
    return ast.copy_location(ast.Call(call.func, arguments, call.keywords), call)


def _s(count: int) -> str:
    return "" if count == 1 else "s"
