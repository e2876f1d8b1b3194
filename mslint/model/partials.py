"""The calls that build a class (or call a function) through ``functools.partial``.

``make = partial(Block, attention=False)`` then ``make(4)`` is ``Block(4, attention=False)``; so is
``block(4)`` in ``def __init__(self, block=partial(Block, attention=False))``. Each call of the
object the partial makes is a call of what it wraps, with the partial's arguments first and its
keywords under the call's own. The calls are all known only where the partial object is held by
a name that code only calls: bound once (:func:`~mslint.model.binder.bound_once`) and never
rebound in the scope or the functions nested in it, or the default of a parameter its function
never rebinds. A partial handed on (to a class, a registry, a list) may be called anywhere: then
None, and the class stays handed on as a value (:mod:`mslint.model.instances`).
"""

from __future__ import annotations

import ast
from typing import NamedTuple, Union

from mslint.model.binder import bound_once, parameter_defaults, spreads
from mslint.model.module import ModuleInfo
from mslint.model.project import Project, qualified_name
from mslint.model.registries import modules_naming
from mslint.model.walk import descendants, parent_of

Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]


class PartialCalls(NamedTuple):
    """The calls of the object a ``functools.partial`` call makes."""

    partial: ast.Call
    """The ``partial(Block, ...)`` call: its arguments after the first come before each call's."""
    scope: Scope
    """Where the partial's arguments are evaluated: the scope that holds it (for a default, the one
    around the function)."""
    calls: list[ast.Call]


def partial_calls(project: Project, reference: ast.expr, module: ModuleInfo) -> PartialCalls | None:
    """The calls of the partial object ``reference`` is wrapped in as ``partial(reference, ...)``
    (module doc); None where it is not so wrapped, the partial spreads arguments, or its object
    may be called elsewhere than at calls of the name that holds it."""
    made = parent_of(module.tree, reference)
    if not (
        isinstance(made, ast.Call)
        and made.args
        and made.args[0] is reference
        and qualified_name(made.func, module) == "functools.partial"
        and not spreads(made)
    ):
        return None
    holder = parent_of(module.tree, made)
    if isinstance(holder, ast.arguments):
        return _default_calls(made, holder, module)
    if isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name):
        return _bound_calls(project, made, holder.targets[0].id, module)
    return None


def _bound_calls(project: Project, made: ast.Call, name: str, module: ModuleInfo) -> PartialCalls | None:
    """``make = partial(...)``: the calls of ``make`` in its scope, where it is bound once there and
    every other read of the name, in the functions nested there too, calls it. A name of a module's
    top level that another module names may be imported and called there: None."""
    (scope,) = module.scopes_holding([made.lineno])
    if bound_once(scope, name) is not made:
        return None
    if isinstance(scope, ast.Module) and modules_naming(project, name) != [module]:
        return None
    calls = _only_called(scope, name, module, stores=1)
    return None if calls is None else PartialCalls(made, scope, calls)


def _default_calls(made: ast.Call, arguments: ast.arguments, module: ModuleInfo) -> PartialCalls | None:
    """``def __init__(self, block=partial(...))``: the calls of ``block`` in the function, where
    every read of it calls it and nothing rebinds it."""
    function = parent_of(module.tree, arguments)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    named = [parameter.arg for parameter, default in parameter_defaults(function) if default is made]
    calls = _only_called(function, named[0], module, stores=0) if len(named) == 1 else None
    return None if calls is None else PartialCalls(made, _around(function, module), calls)


def _only_called(scope: Scope, name: str, module: ModuleInfo, stores: int) -> list[ast.Call] | None:
    """The calls of ``name`` in ``scope`` and the functions nested in it, where it is bound there
    ``stores`` times (beside a parameter of ``scope``) and read only as what a call calls."""
    found = []
    bound = 0
    for node in descendants(scope):
        if (
            isinstance(node, ast.arg)
            and node.arg == name
            and parent_of(module.tree, node) is not getattr(scope, "args", None)
        ):
            return None  # a nested function's parameter: another name
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        if not isinstance(node.ctx, ast.Load):
            bound += 1
            continue
        call = parent_of(module.tree, node)
        if not (isinstance(call, ast.Call) and call.func is node):
            return None
        found.append(call)
    return found if bound == stores else None


def _around(function: ast.FunctionDef | ast.AsyncFunctionDef, module: ModuleInfo) -> Scope:
    """The function or module whose code evaluates ``function``'s defaults (a class body's names
    aside: its methods' defaults are read as the module's)."""
    node = parent_of(module.tree, function)
    while node is not None and not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
        node = parent_of(module.tree, node)
    return node if node is not None else module.tree
