"""The instances the program builds of a class: what its constructor is given.

MindSpore compiles an instance, not a class: what ``__init__`` was given becomes a constant of
the graph (``self.use_bn = use_bn`` decides which branch of ``construct`` exists). The project's
calls of a class (``Block(64, use_bn=False)`` in a script, a factory, another Cell's
``__init__``) are its instances, and each parameter of ``__init__`` holds the join of what they
pass, its default where a call omits it.

The instances are all known only where the class is used by calling it: a class handed on as
a value (to a registry, ``functools.partial``, a dict of classes, a base list) or registered
by a decorator may be built anywhere, with anything; so may one that a call builds with
``*args`` or ``**kwargs``. Then nothing is said (None), as where the project never builds the
class. Only the files checked together are read: checking one file of a project, its instances
are those that file builds.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractDtype,
    AbstractValue,
    Construction,
    Kind,
    join_all,
    literal,
)
from mslint.model.binder import literal_value, parameter_defaults, passed_arguments, spreads
from mslint.model.dtypes import dtype_named
from mslint.model.host_values import HostValues
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionRef, Project
from mslint.model.values import UNKNOWN
from mslint.model.walk import descendants

_TYPE_TESTS = ("isinstance", "issubclass", "super")
"""Builtins whose arguments name a class without building or handing it on."""


def constructor_values(project: Project, cls: ClassRef) -> dict[str, AbstractValue] | None:
    """The value of each named parameter of ``cls``'s own ``__init__`` over the instances the
    project builds; None where they are not all known (module doc) or it builds none."""
    memo = project.derived(_no_classes_asked)
    key = id(cls.node)
    if key not in memo:
        memo[key] = _constructor_values(project, cls)
    return memo[key]


def _no_classes_asked(project: Project) -> dict[int, dict[str, AbstractValue] | None]:
    return {}


def _constructor_values(project: Project, cls: ClassRef) -> dict[str, AbstractValue] | None:
    init = project.find_method(cls, "__init__")
    if init is None or init.owner is None or init.owner.node is not cls.node:
        return None  # an inherited constructor: the base's own instances say what it is given
    if cls.node.decorator_list:
        return None  # registered (``@register_model``): built by name, anywhere
    calls = _calls_building(project, cls)
    if not calls:
        return None
    per_call = [_given(call, module, init, project) for call, module in calls]
    if any(given is None for given in per_call):
        return None
    names = [argument.arg for argument, _ in parameter_defaults(init.node)][1:]
    return {name: join_all([given[name] for given in per_call if given is not None], UNKNOWN) for name in names}


def _calls_building(project: Project, cls: ClassRef) -> list[tuple[ast.Call, ModuleInfo]] | None:
    """Every call of ``cls`` in the project; None where the class is named other than by a call
    of it or a type test (handed on as a value)."""
    name = cls.node.name
    calls: list[tuple[ast.Call, ModuleInfo]] = []
    for module in project.derived(_modules_by_word).get(name, ()):
        if any(_refers_to(project, node, module, cls) for node in _handed_on(module).get(name, ())):
            return None
        calls += [
            (call, module) for call in module.calls_by_name.get(name, ()) if _refers_to(project, call.func, module, cls)
        ]
    return calls


def _modules_by_word(project: Project) -> dict[str, list[ModuleInfo]]:
    """The modules whose text holds each identifier: where a class may be named, found once."""
    found: dict[str, list[ModuleInfo]] = {}
    for module in project.modules:
        for word in set(_IDENTIFIER.findall(module.text)):
            found.setdefault(word, []).append(module)
    return found


_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_HANDED_ON: NodeMemo[ast.Module, dict[str, list[ast.expr]]] = NodeMemo()


def _handed_on(module: ModuleInfo) -> dict[str, list[ast.expr]]:
    """By the name they end with: the names and attributes the module reads other than to call
    them or in a type test (memoized by tree)."""
    return _HANDED_ON(module.tree, lambda _: _references_handed_on(module))


def _references_handed_on(module: ModuleInfo) -> dict[str, list[ast.expr]]:
    called = {id(call.func) for call in module.nodes_of(ast.Call)}
    type_tested = {
        id(argument)
        for call in module.nodes_of(ast.Call)
        if isinstance(call.func, ast.Name) and call.func.id in _TYPE_TESTS
        for argument in descendants(call)
    }
    found: dict[str, list[ast.expr]] = {}
    named: list[tuple[str, ast.expr]] = [(n.id, n) for n in module.nodes_of(ast.Name)]
    named += [(n.attr, n) for n in module.nodes_of(ast.Attribute)]
    for name, node in named:
        if id(node) not in called and id(node) not in type_tested:
            found.setdefault(name, []).append(node)
    return found


def _refers_to(project: Project, expr: ast.expr, module: ModuleInfo, cls: ClassRef) -> bool:
    resolved = project.resolve_expr(expr, module)
    return isinstance(resolved, ClassRef) and resolved.node is cls.node


def _given(call: ast.Call, module: ModuleInfo, init: FunctionRef, project: Project) -> dict[str, AbstractValue] | None:
    """What one call gives each named parameter of ``__init__`` (its default where it gives
    nothing); None where it spreads arguments, which may give any of them."""
    arguments = passed_arguments(call, init.node, is_method=True)
    if arguments is None:
        return None
    parameters = parameter_defaults(init.node)[1:]
    (scope,) = module.scopes_holding([call.lineno])
    values = HostValues(scope, module, project)
    found: dict[str, AbstractValue] = {}
    for parameter, default in parameters:
        argument = arguments.get(parameter.arg)
        given = NOT_KNOWN if default is None else literal_value(default)
        if argument is not None:
            found[parameter.arg] = values.value(argument)
        else:
            found[parameter.arg] = UNKNOWN if given is NOT_KNOWN else literal(given)
    return found


def construction(call: ast.Call, qualname: Callable[[ast.expr], str | None]) -> Construction:
    """What a MindSpore Cell or Primitive is built with, as values (``nn.Dense(64, 10)``,
    ``ops.ReduceSum(keep_dims=True)``): literals and dtypes; anything else is a constant whose
    value is not known (an ``__init__`` parameter, a computed size)."""

    def value(expr: ast.expr) -> AbstractValue:
        dtype = dtype_named(expr, qualname) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        if dtype is not None:
            return AbstractDtype(Kind.CONSTANT, dtype)
        known = literal_value(expr)
        return AbstractAny(Kind.CONSTANT) if known is NOT_KNOWN else literal(known)

    if spreads(call):
        return Construction(tuple(AbstractAny(Kind.CONSTANT) for _ in call.args))
    return Construction(tuple(map(value, call.args)), tuple((k.arg, value(k.value)) for k in call.keywords if k.arg))
