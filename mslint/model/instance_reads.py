"""What the code that builds an instance reads, instance by instance.

A class's ``__init__`` (or a factory function of a module's top level) runs once per instance,
with what the call that builds it gives: ``nn.Dropout(self.dropout_ratio)`` after
``self.dropout_ratio = dropout_ratio`` builds, for ``Net(dropout_ratio=0.5)``, a layer that keeps
half of the elements, whatever the default or another instance says. A read here is a parameter of
that code that it never rebinds, or ``self.<attribute>`` that ``__init__`` sets once, directly in
its body and before the read, to such a parameter (and that no other method sets); each instance
the program builds (:func:`~mslint.model.instances.built_instances`) gives it one value.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import NamedTuple

from mslint.model.abstract import AbstractValue
from mslint.model.binder import all_arguments, binding_counts
from mslint.model.instances import built_instances, caller_built_by
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, Project


class Instance(NamedTuple):
    """One instance of the code around a read: the call that builds it, and what it gives."""

    call: ast.Call
    module: ModuleInfo
    given: Mapping[str, AbstractValue]
    """Each named parameter of the code (``self`` aside): its default where the call omits it."""
    attributes: Mapping[str, str]
    """The ``self`` attributes read as a parameter (module doc), by attribute."""

    def value(self, expr: ast.expr) -> AbstractValue | None:
        """What ``expr`` holds in this instance, where it is a read of the module doc; else None."""
        if isinstance(expr, ast.Name):
            return self.given.get(expr.id)
        if isinstance(expr, ast.Attribute) and expr.attr in self.attributes:
            return self.given.get(self.attributes[expr.attr])
        return None


def instances_around(project: Project, module: ModuleInfo, call: ast.Call) -> list[Instance] | None:
    """The instances the program builds of the code that makes ``call`` (an ``__init__`` of a class
    of the module's top level, a factory function), each with what it gives that code's parameters;
    None where the code is no such code, or its instances are not all known."""
    callee = caller_built_by(module, call)
    built = None if callee is None else built_instances(project, callee)
    if callee is None or built is None:
        return None
    (scope,) = module.scopes_holding([call.lineno])
    assert isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef))
    kept = {a.arg for a in all_arguments(scope.args)} - set(binding_counts(scope))
    attributes = {}
    if isinstance(callee, ClassRef) and scope.args.args:
        attributes = _attributes_set_once(callee, scope, kept, scope.args.args[0].arg, call.lineno)
    return [
        Instance(building, calling, {name: value for name, value in given.items() if name in kept}, attributes)
        for building, calling, given in built
    ]


def _attributes_set_once(
    cls: ClassRef, init: FunctionNode, kept: set[str], self_name: str, line: int
) -> dict[str, str]:
    """The ``self`` attributes that ``init`` sets, by a statement of its own body before ``line``,
    to one of the parameters ``kept``, and that nothing else in the class sets."""
    stores: dict[str, int] = {}
    for node in ast.walk(cls.node):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            stores[node.attr] = stores.get(node.attr, 0) + 1
    found = {}
    for statement in init.body:
        if statement.lineno >= line:
            break
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
            continue
        target, value = statement.targets[0], statement.value
        if (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == self_name
            and isinstance(value, ast.Name)
            and value.id in kept
            and stores.get(target.attr) == 1
        ):
            found[target.attr] = value.id
    return found
