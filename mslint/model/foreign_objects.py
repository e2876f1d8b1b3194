"""Values of a type mslint does not know: what a call into another library makes.

A program may hand a graph an object of a library that is neither MindSpore (nor one of its suites,
``mindcv``), nor numpy or another array library, nor the project itself: a polars DataFrame
(``net(pl.read_csv(path))``), a ``decimal.Decimal``. MindSpore 2.10 hands the graph such an object
as it is and compiles its own attributes and methods there (measured, GRAPH mode, STRICT and LAX, a
fresh process each: a class of another module with ``select`` and ``to_numpy``,
``Decimal("2").sqrt().to_eng_string()``, ``Fraction(1, 3).limit_denominator(10)``,
``date(2020, 1, 2).replace(year=2000).isoformat()`` and a ``SimpleNamespace``'s ``shape`` all
compile and return their Python result), so what the Tensor API has or lacks says nothing of it.

A value is such an object where the call that makes it is one of that library's (a function or a
class, ``polars.read_csv(path)``, ``Decimal("2")``) or a method of such an object
(``pl.DataFrame(rows).filter(...)``): made in place, by a name its scope binds once (or an item of
``train, val = load()``), by a function of the project that returns one on every path, or held by
a parameter that every call of its function fills with one (``forward_fn(frame)``, called through
``grad_fn = value_and_grad(forward_fn)``). Its type is one mslint does not know (a method's result
may be an array, ``frame.to_numpy()``), so it is not taken for a tensor either. MindSpore's values
may be tensors, and those of the array libraries are arrays or tensors; Python's own builtins make
its numbers and containers; a copy (``copy.deepcopy(x)``) is of its argument's type.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from mslint.model.binder import all_parameter_names, binding_counts, bound_once
from mslint.model.instances import arguments_given
from mslint.model.module import ModuleInfo, imports_in
from mslint.model.project import (
    FunctionNode,
    FunctionRef,
    Project,
    from_a_mindspore_suite,
    is_mindspore_name,
    qualified_name,
    qualified_name_in,
)
from mslint.model.walk import own_nodes, parent_of, returned_values

_ARRAY_LIBRARIES = frozenset(
    {"numpy", "cupy", "jax", "torch", "tensorflow", "paddle", "cv2", "scipy", "skimage", "imageio"}
)
"""The libraries whose values are arrays or tensors: their own array types, or numpy's (``cv2.imread``)."""
_COPIES = frozenset({"copy.copy", "copy.deepcopy"})
"""Calls whose result is of the type of their first argument."""
_DEPTH = 12
"""How many steps (names, methods, copies, calls) deep a value is followed: a guard against cycles."""


def made_by_another_library(
    argument: ast.expr, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project
) -> str | None:
    """The call of another library that makes ``argument`` of a call in ``scope``, by its
    qualified name (``polars.read_csv``; the first where several may); None where it is no object
    of another library (module doc)."""
    return _made(argument, scope, module, project, 0)


def _made(
    expr: ast.expr, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project, depth: int
) -> str | None:
    if depth > _DEPTH:
        return None
    if isinstance(expr, ast.Name):
        return _named(expr.id, scope, module, project, depth)
    if not isinstance(expr, ast.Call):
        return None
    local_names = frozenset(binding_counts(scope)) if not isinstance(scope, ast.Module) else frozenset()
    qualname = qualified_name_in(expr.func, module, imports_in(scope, module.package), local_names)
    if qualname is None:
        # a method of another library's object is that library's call (`frame.filter(...)`)
        receiver = expr.func.value if isinstance(expr.func, ast.Attribute) else None
        return None if receiver is None else _made(receiver, scope, module, project, depth + 1)
    if qualname in _COPIES:
        return _made(expr.args[0], scope, module, project, depth + 1) if expr.args else None
    resolved = project.resolve(qualname, module)
    if isinstance(resolved, FunctionRef):
        return _all(
            _made(v, resolved.node, resolved.module, project, depth + 1) for v in returned_values(resolved.node)
        )
    library = qualname.split(".", 1)[0]
    if resolved is not None or "." not in qualname or project.module_named(library, module) is not None:
        return None  # the project's own class, a builtin, or a name of no library
    return (
        None
        if is_mindspore_name(qualname) or from_a_mindspore_suite(qualname) or library in _ARRAY_LIBRARIES
        else qualname
    )


def _named(name: str, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project, depth: int) -> str | None:
    """Whether ``name`` read in ``scope`` holds such an object: bound once there (``frame =
    pl.read_csv(path)``, or an item of ``train, val = load()``), a parameter of a function that
    every call fills with one (``forward_fn(frame)``, called through ``grad_fn``), or a name of the
    module that a function of it reads without binding it."""
    value = bound_once(scope, name)
    if value is not None:
        return _made(value, scope, module, project, depth + 1)
    unpacked = _unpacked_once(scope, name)
    if unpacked is not None:
        items = _items(*unpacked, scope, module, project)
        return _all(_made(item, item_scope, item_module, project, depth + 1) for item, item_scope, item_module in items)
    if isinstance(scope, ast.Module) or name in binding_counts(scope):
        return None
    if name not in all_parameter_names(scope):
        return None if _nested(scope, module) else _named(name, module.tree, module, project, depth + 1)
    given = arguments_given(project, module, scope, name) or []
    return _all(_made(argument, s, m, project, depth + 1) for argument, s, m in given)


def _all(makers: Iterable[str | None]) -> str | None:
    """The first of ``makers`` where there is one and each is a call of another library's."""
    found = list(makers)
    return found[0] if found and all(found) else None


def _nested(function: FunctionNode, module: ModuleInfo) -> bool:
    """Whether ``function`` is defined in another function's body, whose names it may read."""
    around = parent_of(module.tree, function)
    while around is not None and not isinstance(around, (ast.FunctionDef, ast.AsyncFunctionDef)):
        around = parent_of(module.tree, around)
    return around is not None


def _unpacked_once(scope: FunctionNode | ast.Module, name: str) -> tuple[ast.expr, int] | None:
    """``(value, i)`` where the one statement of ``scope``'s own code that binds ``name`` is
    ``a, ..., name, ... = value``, with ``name`` the ``i``-th target."""
    stores = [n for n in own_nodes(scope) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    if len(stores) != 1:
        return None
    for node in own_nodes(scope):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple):
            targets = node.targets[0].elts
            if any(t is stores[0] for t in targets) and not any(isinstance(t, ast.Starred) for t in targets):
                return node.value, next(i for i, t in enumerate(targets) if t is stores[0])
    return None


def _items(
    value: ast.expr, position: int, scope: FunctionNode | ast.Module, module: ModuleInfo, project: Project
) -> list[tuple[ast.expr, FunctionNode | ast.Module, ModuleInfo]]:
    """The expressions the ``position``-th item of ``value`` is, each with its scope and module: an
    item of a tuple written out, or of every tuple a function of the project returns; none where
    that is not known (then nothing is such an object)."""
    if isinstance(value, ast.Tuple):
        return [(value.elts[position], scope, module)] if position < len(value.elts) else []
    qualname = qualified_name(value.func, module) if isinstance(value, ast.Call) else None
    resolved = project.resolve(qualname, module) if qualname else None
    if not isinstance(resolved, FunctionRef):
        return []
    items = [
        _items(returned, position, resolved.node, resolved.module, project)
        for returned in returned_values(resolved.node)
    ]
    return [item for found in items for item in found] if items and all(items) else []
