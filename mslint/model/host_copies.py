"""Host copies in graph code: Python lists copied from a graph tensor.

``t.tolist()`` (also of ``t.asnumpy()`` or ``t.numpy()``) and ``list(t.asnumpy())`` copy a
tensor to the host as a Python list. In graph code its length and values are known only when
the graph runs, so the compiler cannot apply Python's builtins that need them: measured on
2.10, ``max(lens.asnumpy().tolist())`` fails in LAX with ``Unsupported op [IsDimUnKnown]``
(STRICT rejects the copy itself, which ``tensor-to-host-in-graph`` reports). A copy of a
constant (a tensor attribute set in ``__init__``) is folded by LAX: it is no graph value.

A local name is a host copy where every binding of it is one (``lengths = t.tolist()``); a
parameter never is (what it is given is known to the caller).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import Kind
from mslint.model.binder import all_parameter_names, bindings
from mslint.model.scope import GraphFunction

_TO_ARRAY = frozenset({"asnumpy", "numpy"})
_TO_HOST = _TO_ARRAY | {"tolist"}
_DEPTH = 4
"""How many names deep a copy is followed (``a = t.tolist()``, ``b = a``, ...)."""


def host_copy_method(call: ast.Call) -> ast.Attribute | None:
    """The method of ``t.asnumpy()``, ``t.numpy()`` or ``t.tolist()``, the calls that copy a
    tensor ``t`` to the host; None for any other call."""
    method = call.func
    if isinstance(method, ast.Attribute) and method.attr in _TO_HOST and not call.args and not call.keywords:
        return method
    return None


def host_list_copy(expr: ast.expr, function: GraphFunction, depth: int = 0) -> ast.Call | None:
    """The call that copies a graph tensor to the host list ``expr`` is (``t.tolist()``,
    ``list(t.asnumpy())``), directly or through local names each binding of which is one; None
    where ``expr`` may be anything else."""
    if depth > _DEPTH:
        return None
    if isinstance(expr, ast.Name):
        return _copy_bound_to(expr.id, function, depth)
    if not isinstance(expr, ast.Call) or expr.keywords:
        return None
    method = host_copy_method(expr)
    if method is not None and method.attr == "tolist":
        return expr if function.kind(method.value) is Kind.GRAPH else None
    is_list = function.qualname(expr.func) == "builtins.list" and len(expr.args) == 1
    return expr if is_list and _is_array_copy(expr.args[0], function) else None


def _copy_bound_to(name: str, function: GraphFunction, depth: int) -> ast.Call | None:
    if name in all_parameter_names(function.node):
        return None
    bound = [b for b in bindings(function.node) if name in b.names]
    if not bound or any(not isinstance(b.target, ast.Name) or b.iterates or b.value is None for b in bound):
        return None  # an item unpacked, a loop target, an augmented assignment's ``+=``: not a copy
    copies = [host_list_copy(b.value, function, depth + 1) for b in bound if b.value is not None and b.unpacks]
    if len(copies) != len(bound) or None in copies:
        return None
    return copies[0]


def _is_array_copy(expr: ast.expr, function: GraphFunction) -> bool:
    """``t.asnumpy()`` or ``t.numpy()`` of a graph value."""
    method = host_copy_method(expr) if isinstance(expr, ast.Call) else None
    return method is not None and method.attr in _TO_ARRAY and function.kind(method.value) is Kind.GRAPH
