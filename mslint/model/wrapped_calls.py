"""The calls that run a function through MindSpore's wrappers, with the caller's own arguments.

MindSpore's tutorial trains this way: ``grad_fn = ms.value_and_grad(forward_fn, None,
optimizer.parameters)`` at the top of a module, then ``grad_fn(data, label)`` in ``train_step``
runs ``forward_fn(data, label)``; ``@ms.jit`` on ``train_step`` compiles it and hands it the
arguments of each call. So a function handed to ``value_and_grad``, ``grad`` or ``jit``, where
what the wrapper makes is bound to one name, is called at each call of that name, with the same
arguments. Only a name that the code reads just to call it is followed: one handed on as a value
(``Model(..., grad_fn)``, a list of steps) may be called by anything, with anything. A function
that returns what the wrapper makes, or a function of its own body (``def make_train_step(): ...
return train_step``), hands it to its callers: what they bind the result to is followed the same
way (``step = make_train_step()``, ``step(x, 3)``), the calls of that function given by the caller
of this module (``calls_of``: :mod:`mslint.model.instances` knows them across the project).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Callable, NamedTuple, Optional

from mslint.model.binder import all_parameter_names, binding_counts
from mslint.model.capture import decorator_capture
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode, is_mindspore_name, qualified_name
from mslint.model.walk import own_nodes, parent_of

PASSING_WRAPPERS = ("value_and_grad", "grad", "jit", "ms_function")
"""MindSpore's wrappers whose result calls the function it is given with the arguments it gets
(``grad`` returns the gradients, but of that call)."""

ModuleCall = tuple[ast.Call, ModuleInfo]
CallsOf = Callable[[FunctionNode, ModuleInfo], Optional[list[ModuleCall]]]
"""The calls of a function, wherever the project makes them; None where they are not all known."""
_DEEPEST = 8
"""How many returns and bindings deep a result is followed."""
_ASKED: set[int] = set()
"""The functions whose calls are being found, to follow what they return: a cycle is not followed."""


class Wrapped(NamedTuple):
    """What the references to a function that hand it on say of its calls."""

    calls: list[ModuleCall]
    """The calls that run it through a wrapper."""
    others: list[tuple[ast.expr, ModuleInfo]]
    """The references that hand it on otherwise (to a registry, to anything)."""


def calls_through_wrappers(references: list[tuple[ast.expr, ModuleInfo]], calls_of: CallsOf) -> Wrapped | None:
    """Sort the references that hand a function on: the first argument of a passing wrapper whose
    result is only called (module doc) gives those calls; the others are kept. None where a
    wrapper's result is handed on as well."""
    calls: list[ModuleCall] = []
    others: list[tuple[ast.expr, ModuleInfo]] = []
    for reference, module in references:
        wrapper = _wrapper_of(reference, module)
        if wrapper is None:
            others.append((reference, module))
            continue
        through = _calls_of_value(wrapper, module, calls_of, 0)
        if through is None:
            return None
        calls += through
    return Wrapped(calls, others)


def calls_of_local_function(function: FunctionNode, module: ModuleInfo, calls_of: CallsOf) -> list[ModuleCall] | None:
    """The calls of a function defined in another function's body (``forward_fn`` in ``train()``):
    those of its name there and in the functions nested there, direct, through a wrapper or
    through what returns it; None where the name is bound again or handed on otherwise."""
    scope = _scope_of(parent_of(module.tree, function), module)
    if scope is None or isinstance(scope, ast.Module) or binding_counts(scope).get(function.name) != 1:
        return None
    calls: list[ModuleCall] = []
    handed_on: list[tuple[ast.expr, ModuleInfo]] = []
    for read in _reads_in(scope, function.name):
        if isinstance(parent_of(module.tree, read), ast.Return):
            handed_on.append((read, module))
            continue
        through = _calls_of_value(read, module, calls_of, 0)
        if through is None:
            handed_on.append((read, module))
        else:
            calls += through
    wrapped = calls_through_wrappers(handed_on, calls_of)
    if wrapped is None:
        return None
    for reference, _ in wrapped.others:
        through = _calls_of_value(reference, module, calls_of, 0)
        if through is None:
            return None
        calls += through
    return calls + wrapped.calls


def is_passing_decorator(decorator: ast.expr, module: ModuleInfo) -> bool:
    """Whether a decorator is ``jit`` (``@ms.jit``, ``@jit(capture_mode="ast")``): the function it
    makes is called as the function is."""
    return decorator_capture(decorator, module) is not None


def _wrapper_of(reference: ast.expr, module: ModuleInfo) -> ast.Call | None:
    """The wrapper call whose first argument is ``reference`` (``value_and_grad(forward_fn, ...)``)."""
    call = parent_of(module.tree, reference)
    if not (isinstance(call, ast.Call) and call.args and call.args[0] is reference):
        return None
    return call if passes_its_calls_on(call, module) else None


def passes_its_calls_on(call: ast.Call, module: ModuleInfo) -> bool:
    """Whether ``call`` is a wrapper whose result calls what it is given with the same arguments
    (``value_and_grad(net, None, weights)``, ``jit(net)``, ``GradOperation(get_all=True)(net)``;
    not ``GradOperation(sens_param=True)(net)``, whose calls pass a last argument more, the
    ``sens``)."""
    if not call.args:
        return False
    if isinstance(call.func, ast.Call):
        return _is_grad_operation(call.func, module) and not _may_take_sens(call.func)
    return is_mindspore_name(qualified_name(call.func, module), *PASSING_WRAPPERS)


def _is_grad_operation(call: ast.Call, module: ModuleInfo) -> bool:
    return is_mindspore_name(qualified_name(call.func, module), "GradOperation")


def _may_take_sens(grad_operation: ast.Call) -> bool:
    """Whether the ``GradOperation`` call may build one with ``sens_param`` set: by keyword, where
    it is not a literal False, or by position (its third parameter), or through ``**``."""
    if len(grad_operation.args) > 2 or any(k.arg is None for k in grad_operation.keywords):
        return True
    sens = next((k.value for k in grad_operation.keywords if k.arg == "sens_param"), None)
    return sens is not None and not (isinstance(sens, ast.Constant) and sens.value is False)


def _calls_of_value(value: ast.expr, module: ModuleInfo, calls_of: CallsOf, depth: int) -> list[ModuleCall] | None:
    """The calls of what ``value`` holds: itself called (``value_and_grad(f)(x)``); a name bound to
    it once in its scope and read there, or in the functions nested there, only as such a value
    (``grad_fn = value_and_grad(f)``, ``grad_fn(x)`` in ``train_step``); or returned, then the
    results of the calls of the function that returns it (module doc). None otherwise."""
    if depth > _DEEPEST:
        return None
    holder = parent_of(module.tree, value)
    if isinstance(holder, ast.Call) and holder.func is value:
        return [(holder, module)]
    if isinstance(holder, ast.Return):
        function = _scope_of(holder, module)
        if function is None or isinstance(function, ast.Module) or function.decorator_list:
            return None
        if id(function) in _ASKED:
            return None  # a function that returns itself, or what returns it
        _ASKED.add(id(function))
        try:
            made = calls_of(function, module)
        finally:
            _ASKED.discard(id(function))
        return None if made is None else _calls_of_all(made, calls_of, depth + 1)
    if not (isinstance(holder, ast.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], ast.Name)):
        return None
    name = holder.targets[0].id
    scope = _scope_of(holder, module)
    if scope is None or _bindings(scope).get(name) != 1:
        return None
    return _calls_of_all([(read, module) for read in _reads_in(scope, name)], calls_of, depth + 1)


def _calls_of_all(
    values: Sequence[tuple[ast.expr, ModuleInfo]], calls_of: CallsOf, depth: int
) -> list[ModuleCall] | None:
    found: list[ModuleCall] = []
    for value, module in values:
        calls = _calls_of_value(value, module, calls_of, depth)
        if calls is None:
            return None
        found += calls
    return found


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
                name in binding_counts(child) or name in all_parameter_names(child)
            ):
                continue
            if isinstance(child, ast.Lambda) and name in all_parameter_names(child):
                continue
            if isinstance(child, ast.Name) and child.id == name and isinstance(child.ctx, ast.Load):
                found.append(child)
            pending.append(child)
    return found
