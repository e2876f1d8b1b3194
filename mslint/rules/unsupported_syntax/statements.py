"""Statements with checks of their own: the ``else`` of loops, ``with`` on anything but a
``@jit_class`` instance, ``raise`` of an exception class of the project."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.project import ClassRef, is_jit_class
from mslint.model.python_libraries import CONCURRENCY_MODULES
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding
from mslint.syntax_table import ERROR


def loop_else(loop: ast.For | ast.While, function: GraphFunction) -> Iterator[Finding]:
    """``for``/``while`` with an ``else`` clause, where the syntax table finds it rejected."""
    if not loop.orelse:
        return
    keyword = "for" if isinstance(loop, ast.For) else "while"
    row = f"stmt.{type(loop).__name__}/else"
    table = function.project.release.syntax
    if table.has(row) and table.outcome(row, "construct", "lax").kind == ERROR:
        yield Finding(
            loop.iter if isinstance(loop, ast.For) else loop.test,  # where the compiler reports it
            f"`{keyword} ... else` in graph code: MindSpore rejects the `else` clause at every syntax level",
            hint="set a flag in the loop (or `break` out of it) and test the flag after it",
        )


def context_managers(statement: ast.With, function: GraphFunction) -> Iterator[Finding]:
    """``with`` on anything but a ``@jit_class`` instance: rejected at every level ("Only support
    jit_class instance"). Where the object's class is unknown, nothing is said."""
    for item in statement.items:
        what = _plain_context_manager(item.context_expr, function)
        if what is not None:
            yield Finding(
                item.context_expr,
                f"`with` on {what}: MindSpore accepts only `@jit_class` instances as context managers in "
                "graph code, at every syntax level",
                hint="enter the context in the host code around the Cell, or make the class a `@mindspore.jit_class`",
            )


def _plain_context_manager(expr: ast.expr, function: GraphFunction) -> str | None:
    """How to name the context manager ``expr`` makes where it is not a ``@jit_class`` instance."""
    if isinstance(expr, ast.Call):
        resolved = function.resolve_call(expr)
        if isinstance(resolved, ClassRef):
            return None if is_jit_class(resolved) or function.project.is_cell(resolved) else f"a `{resolved.node.name}`"
        qualname = function.qualname(expr.func)
        if qualname is not None and qualname.startswith("mindspore.") and qualname.endswith("no_grad"):
            return f"`{qualname}()`"  # measured: a PythonObject, not a jit_class instance
        if resolved is None and qualname is not None and not qualname.startswith("mindspore."):
            if any(qualname.startswith(f"{m}.") for m in CONCURRENCY_MODULES):
                return None  # concurrency-in-graph's
            if not function.project.is_checked_code(qualname, function.module):
                return f"`{qualname}(...)`"
        return None
    classes = function.instance_classes(expr)
    plain = [c for c in classes if not is_jit_class(c) and not function.project.is_cell(c)]
    return f"a `{plain[0].node.name}`" if classes and len(plain) == len(classes) else None


def user_exceptions(statement: ast.Raise, function: GraphFunction) -> Iterator[Finding]:
    """``raise`` of an exception class of the checked code: graph code raises only Python's own."""
    exc = statement.exc
    target = exc.func if isinstance(exc, ast.Call) else exc
    qualname = function.qualname(target) if target is not None else None
    resolved = function.project.resolve(qualname, function.module) if qualname else None
    if isinstance(resolved, ClassRef):
        yield Finding(
            statement,
            f"`raise {resolved.node.name}`: graph code can raise only Python's built-in exception types, "
            "at every syntax level",
            hint="raise a built-in exception (`ValueError`, `RuntimeError`, ...) in graph code",
        )
