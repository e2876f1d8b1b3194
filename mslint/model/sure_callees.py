"""What a call in graph code runs, where every function it may run is known for certain, with how
the graph compiler binds the call's arguments to each.

:meth:`GraphFunction.callees` names the project functions a call may run, as far as the code
shows them. A check of the call's arguments against their signatures needs them all: a
``self.pool(x, axis)`` whose attribute is a Cell of the project in one instance and
``ops.ReduceMean`` in another, a ``self.forward_train(...)`` that a subclass overrides, a function
given a decorator that takes other arguments, are not known for certain.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.binder import all_parameter_names, binding_counts
from mslint.model.instances import classes_passed
from mslint.model.module import is_self_attribute
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.scope import GraphFunction, conditional_sides

_BINDING_DECORATORS = frozenset({"staticmethod", "classmethod"})
"""The decorators whose binding in graph code is measured (MindSpore 2.10): a static method takes
no ``self``, and a class method is given no ``cls``, called through an object or its class."""


class Callee(NamedTuple):
    function: FunctionRef
    bound: bool
    """Whether the call passes the function's first parameter itself (``self`` of a method called
    on an object)."""


def sure_callees(call: ast.Call, function: GraphFunction) -> list[Callee] | None:
    """Each function of the project ``call`` in ``function`` may run, where they are all known for
    certain; None otherwise (``nn.SequentialCell`` items, which get one value whatever the call
    passes, included)."""
    if function.sequential_items(call.func) or function.repeated_items(call.func):
        return None
    found = []
    for callee in function.callees(call):
        bound = _bound(call, callee, function)
        if bound is None:
            return None
        found.append(Callee(callee, bound))
    return found or None


def _bound(call: ast.Call, callee: FunctionRef, function: GraphFunction) -> bool | None:
    """Whether ``call`` passes ``callee``'s first parameter itself; None where how it binds, or
    whether it runs ``callee`` at all, is not known."""
    decorators = binding_decorators(callee)
    if decorators is None or callee.node.name == "__init__":
        return None
    through_class = function.resolve_call(call) == callee
    if callee.owner is None:
        return False if through_class else None  # not a wrapper holding it (`grad_fn = value_and_grad(f)`)
    if callee.node.name == "construct" and function.project.find_method(callee.owner, "__call__") is not None:
        return None
    if through_class:  # `Net.helper(self, x)` passes its `self` itself
        return False if decorators else None
    func = call.func
    receiver = func.value if isinstance(func, ast.Attribute) and func.attr == callee.node.name else func
    return not decorators if _holds_known_classes(receiver, function) else None


def binding_decorators(function: FunctionRef) -> frozenset[str] | None:
    """The decorators of ``function`` (``staticmethod``, ``classmethod``); None where it has another."""
    decorators = function.node.decorator_list
    names = frozenset(d.id for d in decorators if isinstance(d, ast.Name))
    return names if len(names) == len(decorators) and names <= _BINDING_DECORATORS else None


def _holds_known_classes(receiver: ast.expr, function: GraphFunction) -> bool:
    """Whether every object ``receiver`` may be is of a class the callees were found in: ``self``,
    or a ``self.<attribute>`` every assignment of which builds a class of the project, in a class
    no class of the project derives from (a subclass may override a method, or set the attribute
    to something else)."""
    owner = function.owner
    project = function.project
    if owner is None or id(owner.node) in project.derived(_base_classes):
        return False
    if isinstance(receiver, ast.Name):
        return receiver.id == function.self_name
    if not is_self_attribute(receiver, function.self_name):
        return False
    assert isinstance(receiver, ast.Attribute)
    assigned = project.attribute_values(owner, receiver.attr)
    return bool(assigned) and all(_builds_known_class(value, klass, project) for klass, value in assigned)


def _builds_known_class(value: ast.expr, klass: ClassRef, project: Project) -> bool:
    """Whether ``value``, assigned to an attribute in ``klass``, is an instance of a class of the
    project: a call of one, or a parameter of the class's own ``__init__`` that it never rebinds
    and that every call building the class gives one (``self.network = network``); or ``None``,
    or a conditional expression of these (``Attention() if gated else None``): a call of ``None``
    fails whatever it passes, so the call runs one of the classes or fails (measured on 2.10: where
    the compiler folds the test that guards it, it never reaches the call)."""
    if isinstance(value, ast.IfExp):
        return all(_builds_known_class(side, klass, project) for side in conditional_sides(value))
    if isinstance(value, ast.Constant) and value.value is None:
        return True
    if isinstance(value, ast.Call):
        return isinstance(project.resolve_expr(value.func, klass.module), ClassRef)
    init = project.find_method(klass, "__init__")
    if not isinstance(value, ast.Name) or init is None or init.owner is None or init.owner.node is not klass.node:
        return False
    inside = init.node.lineno <= value.lineno <= (init.node.end_lineno or init.node.lineno)
    kept = value.id in all_parameter_names(init.node) and value.id not in binding_counts(init.node)
    return inside and kept and bool(classes_passed(project, klass, value.id))


def _base_classes(project: Project) -> frozenset[int]:
    """The class nodes (ids) that another class of the project derives from."""
    return frozenset(
        id(base.node)
        for module in project.modules
        for sub in (ClassRef(module, node) for node in module.classes.values())
        for base in project.mro(sub)
        if base.node is not sub.node
    )
