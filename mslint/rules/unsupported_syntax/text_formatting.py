"""Text built from graph values: ``"...".format(t)`` and f-strings whose text is used."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.abstract import (
    Kind,
)
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants, raised, statements
from mslint.rules.base import Finding, fallback_severity
from mslint.rules.unsupported_syntax.syntax_rows import measured


def _assigned_and_never_read(value: ast.expr, function: GraphFunction) -> bool:
    """Whether ``value`` is only bound to a local name that nothing reads (the compiler drops it)."""
    names = [
        target.id
        for node in statements(function.node)
        if isinstance(node, ast.Assign) and node.value is value
        for target in node.targets
        if isinstance(target, ast.Name)
    ]
    return bool(names) and not any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in descendants(function.node)
    )


def format_method(call: ast.Call, function: GraphFunction) -> Iterator[Finding]:
    """``"x={}".format(x)`` of a graph value: STRICT rejects it, LAX runs it in the interpreter
    (measured on 2.10; of static values such as ``x.shape`` it compiles)."""
    func = call.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr == "format"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
        and any(function.kind(a) is Kind.GRAPH for a in [*call.args, *(k.value for k in call.keywords)])
        and _text_is_read(call, function)
    ):
        yield Finding(
            call,
            "`str.format` of a graph value: STRICT rejects it, LAX runs it in the Python interpreter",
            hint="print the tensor with `print(x)`, or format it in host code",
            severity=fallback_severity,
        )


def fstring(text: ast.JoinedStr, function: GraphFunction) -> Iterator[Finding]:
    """An f-string of a graph value whose text is used: LAX runs it in the interpreter, STRICT
    compiles it (rows ``format.fstring/*``; of static values such as ``x.shape`` it compiles, and
    an f-string nothing reads is dropped)."""
    values = [v for v in text.values if isinstance(v, ast.FormattedValue) and function.kind(v.value) is Kind.GRAPH]
    if not values or not _text_is_read(text, function) or _consumed_by_another_finding(text, function):
        return
    row = "format.fstring/spec" if any(v.format_spec is not None for v in values) else "format.fstring/tensor"
    yield from measured(
        text,
        "an f-string of a graph value",
        row,
        function,
        hint="print the tensor with `print(x)`, or format it in host code",
    )


def _text_is_read(text: ast.expr, function: GraphFunction) -> bool:
    """Whether graph code uses the text that ``text`` builds: not only to build an exception, and
    read after it is bound (the compiler drops what nothing reads)."""
    return id(text) not in raised(function.node) and not _assigned_and_never_read(text, function)


def _consumed_by_another_finding(text: ast.expr, function: GraphFunction) -> bool:
    """Whether ``text`` is an assertion's message (built only when the assertion fails, as a
    raise's) or an argument of a library call, which is the hazard (``logger.info(f"{x}")``,
    third-party-call-in-graph's)."""
    return any(
        (isinstance(node, ast.Assert) and node.msg is text) or _passes_to_a_library(node, text, function)
        for node in descendants(function.node)
    )


def _passes_to_a_library(node: ast.AST, argument: ast.expr, function: GraphFunction) -> bool:
    """Whether ``node`` is a call, of something else than a builtin, that takes ``argument``."""
    if not isinstance(node, ast.Call) or not any(
        a is argument for a in (*node.args, *(k.value for k in node.keywords))
    ):
        return False
    qualname = function.qualname(node.func)
    return qualname is not None and not qualname.startswith("builtins.")


def reads_locals(func: ast.expr, function: GraphFunction) -> bool:
    if not isinstance(func, ast.Lambda):
        return False
    own = {a.arg for a in (*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs)}
    return any(
        isinstance(n, ast.Name) and n.id in function.local_names and n.id not in own for n in descendants(func.body)
    )
