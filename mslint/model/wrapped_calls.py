"""The calls that run a function through MindSpore's wrappers, with the caller's own arguments.

MindSpore's tutorial trains this way: ``grad_fn = ms.value_and_grad(forward_fn, None,
optimizer.parameters)`` at the top of a module, then ``grad_fn(data, label)`` in ``train_step``
runs ``forward_fn(data, label)``; ``@ms.jit`` on ``train_step`` compiles it and hands it the
arguments of each call. So a function handed to ``value_and_grad``, ``grad`` or ``jit``, where
what the wrapper makes is bound to one name, is called at each call of that name, with the same
arguments. Only a name that the code reads just to call it is followed: one handed on as a value
(``Model(..., grad_fn)``, a list of steps) may be called by anything, with anything.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.binder import binding_counts
from mslint.model.capture import decorator_capture
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode, is_mindspore_name, qualified_name
from mslint.model.walk import own_nodes, parent_of

PASSING_WRAPPERS = ("value_and_grad", "grad", "jit", "ms_function")
"""MindSpore's wrappers whose result calls the function it is given with the arguments it gets
(``grad`` returns the gradients, but of that call)."""

ModuleCall = tuple[ast.Call, ModuleInfo]


class Wrapped(NamedTuple):
    """What the references to a function that hand it on say of its calls."""

    calls: list[ModuleCall]
    """The calls that run it through a wrapper."""
    others: list[tuple[ast.expr, ModuleInfo]]
    """The references that hand it on otherwise (to a registry, to anything)."""


def calls_through_wrappers(references: list[tuple[ast.expr, ModuleInfo]]) -> Wrapped | None:
    """Sort the references that hand a function on: the first argument of a passing wrapper whose
    result is called at once or bound to a name read only to call it gives those calls; the
    others are kept. None where a wrapper's result is handed on as well."""
    calls: list[ModuleCall] = []
    others: list[tuple[ast.expr, ModuleInfo]] = []
    for reference, module in references:
        wrapper = _wrapper_of(reference, module)
        if wrapper is None:
            others.append((reference, module))
            continue
        through = _calls_of_result(wrapper, module)
        if through is None:
            return None
        calls += [(call, module) for call in through]
    return Wrapped(calls, others)


def calls_of_local_function(function: FunctionNode, module: ModuleInfo) -> list[ModuleCall] | None:
    """The calls of a function defined in another function's body (``forward_fn`` in ``train()``):
    those of its name there and in the functions nested there, direct or through a wrapper; None
    where the name is bound again or handed on otherwise."""
    scope = _scope_of(parent_of(module.tree, function), module)
    if scope is None or isinstance(scope, ast.Module) or binding_counts(scope).get(function.name) != 1:
        return None
    calls: list[ModuleCall] = []
    handed_on: list[tuple[ast.expr, ModuleInfo]] = []
    for read in _reads_in(scope, function.name):
        call = parent_of(module.tree, read)
        if isinstance(call, ast.Call) and call.func is read:
            calls.append((call, module))
        else:
            handed_on.append((read, module))
    wrapped = calls_through_wrappers(handed_on)
    return None if wrapped is None or wrapped.others else calls + wrapped.calls


def is_passing_decorator(decorator: ast.expr, module: ModuleInfo) -> bool:
    """Whether a decorator is ``jit`` (``@ms.jit``, ``@jit(capture_mode="ast")``): the function it
    makes is called as the function is."""
    return decorator_capture(decorator, module) is not None


def _wrapper_of(reference: ast.expr, module: ModuleInfo) -> ast.Call | None:
    """The wrapper call whose first argument is ``reference`` (``value_and_grad(forward_fn, ...)``)."""
    call = parent_of(module.tree, reference)
    if not (isinstance(call, ast.Call) and call.args and call.args[0] is reference):
        return None
    return call if is_mindspore_name(qualified_name(call.func, module), *PASSING_WRAPPERS) else None


def _calls_of_result(wrapper: ast.Call, module: ModuleInfo) -> list[ast.Call] | None:
    """The calls of what ``wrapper`` makes: itself called (``value_and_grad(f)(x)``), or a name
    bound to it once in its scope and read there, or in the functions of the module, only to be
    called (``grad_fn = value_and_grad(f)``, ``grad_fn(x)`` in ``train_step``); None otherwise."""
    holder = parent_of(module.tree, wrapper)
    if isinstance(holder, ast.Call) and holder.func is wrapper:
        return [holder]
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)):
        return None
    name = holder.targets[0].id
    scope = _scope_of(holder, module)
    if scope is None or _bindings(scope).get(name) != 1:
        return None
    reads = _reads_in(scope, name)
    calls = [parent_of(module.tree, read) for read in reads]
    if not all(isinstance(call, ast.Call) and call.func is read for call, read in zip(calls, reads)):
        return None
    return [call for call in calls if isinstance(call, ast.Call)]


def _scope_of(node: ast.AST | None, module: ModuleInfo) -> ast.Module | FunctionNode | None:
    """The module or function whose own code ``node`` is (not a class body, not a lambda)."""
    while node is not None and not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
        if isinstance(node, (ast.ClassDef, ast.Lambda)):
            return None
        node = parent_of(module.tree, node)
    return node


def _bindings(scope: ast.Module | FunctionNode) -> dict[str, int]:
    if isinstance(scope, ast.Module):
        counts: dict[str, int] = {}
        for node in own_nodes(scope):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                counts[node.id] = counts.get(node.id, 0) + 1
        return counts
    return binding_counts(scope)


def _reads_in(scope: ast.Module | FunctionNode, name: str) -> list[ast.Name]:
    """The reads of ``name`` that see the binding of ``scope``: its own, and those of the functions
    nested in it that neither bind the name nor take it as a parameter."""
    found: list[ast.Name] = []
    pending: list[ast.AST] = [scope]
    while pending:
        for child in ast.iter_child_nodes(pending.pop()):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and (
                name in binding_counts(child) or name in _parameters(child.args)
            ):
                continue
            if isinstance(child, ast.Lambda) and name in _parameters(child.args):
                continue
            if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load):
                found.append(child)
            pending.append(child)
    return found


def _parameters(arguments: ast.arguments) -> set[str]:
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]
    return {a.arg for a in every if a is not None}
