"""The inputs an instance is compiled for where ``net.set_inputs(...)`` fixes them.

MindSpore compiles a Cell for the tensors its ``set_inputs`` was given, not for those it is then
called with: ``net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32))`` makes ``construct``'s
first parameter a float32 tensor of two rows and a dynamic second dimension (``None`` or ``-1``),
``shape=None`` one of a dynamic rank, whatever ``net(x)`` passes. Only such tensors without data
are read, given to a name the calling scope binds once, by a call of ``set_inputs`` on it before
the call in that scope's own code; where an argument is anything else, the call's own arguments
stand.
"""

from __future__ import annotations

import ast

from mslint.model.abstract import AbstractTensor, AbstractValue, Kind
from mslint.model.dtypes import dtype_named
from mslint.model.module import ModuleInfo
from mslint.model.project import is_mindspore_name, qualified_name
from mslint.model.walk import own_nodes

_OPEN = (None, -1)
"""How ``set_inputs``' tensors write a dynamic dimension."""


def inputs_set(call: ast.Call, scope: ast.AST, module: ModuleInfo) -> tuple[AbstractValue, ...] | None:
    """The tensors the last ``<name>.set_inputs(...)`` before ``call`` (``<name>(...)``) in
    ``scope``'s own code gives, in order; None where there is none, or one not read (module doc)."""
    if not isinstance(call.func, ast.Name):
        return None
    name = call.func.id
    nodes = own_nodes(scope)
    stores = [n for n in nodes if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return None
    settings = [
        n
        for n in nodes
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "set_inputs"
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == name
        and n.lineno < call.lineno
    ]
    if not settings or settings[-1].keywords:
        return None
    tensors = [_tensor_without_data(argument, module) for argument in settings[-1].args]
    return None if any(t is None for t in tensors) else tuple(t for t in tensors if t is not None)


def _tensor_without_data(expr: ast.expr, module: ModuleInfo) -> AbstractTensor | None:
    """``Tensor(shape=[2, None], dtype=ms.float32)``: a graph input of that dtype and shape."""
    if not isinstance(expr, ast.Call) or expr.args:
        return None
    if not is_mindspore_name(qualified_name(expr.func, module), "Tensor"):
        return None
    keywords = {k.arg: k.value for k in expr.keywords}
    dtype_given, shape_given = keywords.get("dtype"), keywords.get("shape")
    dtype = dtype_named(dtype_given, lambda e: qualified_name(e, module)) if dtype_given is not None else None
    if dtype is None or shape_given is None or set(keywords) != {"dtype", "shape"}:
        return None
    if isinstance(shape_given, ast.Constant) and shape_given.value is None:
        return AbstractTensor(Kind.GRAPH, dtype, None, dynamic=True)
    if not isinstance(shape_given, (ast.List, ast.Tuple)):
        return None
    shape = _dimensions(shape_given.elts)
    return None if shape is None else AbstractTensor(Kind.GRAPH, dtype, shape, dynamic=None in shape)


def _dimensions(written: list[ast.expr]) -> tuple[int | None, ...] | None:
    """Literal sizes (``2``), ``None`` for a dynamic one (``None`` or ``-1``); None where one is anything else."""
    dims: list[int | None] = []
    for expr in written:
        try:
            value = ast.literal_eval(expr)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        if value in _OPEN:
            dims.append(None)
        elif type(value) is int and value > 0:
            dims.append(value)
        else:
            return None
    return tuple(dims)
