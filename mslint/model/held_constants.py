"""Constants held by what ``__init__`` sets on ``self``, which the compiler folds in a test as it
folds ``self``'s own (mslint/data/folds-*.json, sources ``attribute``, ``item`` and ``index``): an
attribute of a sub-Cell built there (``self.block = Block(use_bn=False)``: ``self.block.use_bn``;
``Block(use_bn=use_bn)`` where every instance of the parent is given one ``use_bn``),
an item of a dict literal (``self.cfg = {"act": "relu"}``: ``self.cfg["act"]``) or of a tuple
(``self.sizes[0]``, whose value the evaluator reads from the tuple's).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.abstract import NOT_KNOWN, AbstractScalar, Kind
from mslint.model.binder import (
    all_arguments,
    binding_counts,
    literal_value,
    parameter_defaults,
    passed_arguments,
)
from mslint.model.folds import NOT_FOLDED
from mslint.model.instances import constructor_values
from mslint.model.memo import NodeMemo
from mslint.model.project import ClassRef, Project
from mslint.model.walk import descendants

_SCALARS = (bool, int, float, str, type(None))


def held_source(expr: ast.expr, self_name: str | None) -> str | None:
    """The fold table's source of ``expr`` where it reads something an attribute of ``self`` holds:
    ``attribute`` (``self.block.use_bn``), ``item`` (``self.cfg["act"]``), ``index``
    (``self.sizes[0]``); None for anything else."""
    if isinstance(expr, ast.Attribute) and _self_attribute(expr.value, self_name) is not None:
        return "attribute"
    if isinstance(expr, ast.Subscript) and _self_attribute(expr.value, self_name) is not None:
        key = expr.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return "item"
        if isinstance(key, ast.Constant) and type(key.value) is int:
            return "index"
    return None


def held_constant(project: Project, owner: ClassRef, expr: ast.expr, self_name: str | None) -> object:
    """The Python scalar ``expr`` reads (:func:`held_source` ``attribute`` or ``item``) in every
    instance of ``owner``, where ``owner`` sets the holder once and nothing changes it;
    :data:`NOT_FOLDED` otherwise."""
    holder = _self_attribute(expr.value, self_name) if isinstance(expr, (ast.Attribute, ast.Subscript)) else None
    assigned = project.attribute_values(owner, holder) if holder is not None else []
    if holder is None or len(assigned) != 1 or assigned[0][0].node is not owner.node:
        return NOT_FOLDED
    value = assigned[0][1]
    if isinstance(expr, ast.Attribute) and isinstance(value, ast.Call) and not changed(owner.node, holder, expr.attr):
        return _built_attribute(project, owner, value, expr.attr)
    if isinstance(expr, ast.Subscript) and isinstance(value, ast.Dict) and not changed(owner.node, holder):
        key = expr.slice.value if isinstance(expr.slice, ast.Constant) else NOT_FOLDED
        items = {literal_value(k): v for k, v in zip(value.keys, value.values) if k is not None}
        if None in value.keys or key not in items:
            return NOT_FOLDED
        item = literal_value(items[key])
        return item if isinstance(item, _SCALARS) else NOT_FOLDED
    return NOT_FOLDED


def changed(owner: ast.ClassDef, holder: str, attribute: str | None = None) -> bool:
    """Whether a method of ``owner`` may change what ``self.<holder>`` holds in place: where
    ``attribute`` is None, calls a method of it (``append``, ``update``) or assigns or deletes an
    item of it; else sets that attribute of it (``self.block.use_bn = True``)."""
    changes = _CHANGES(owner, _changes_in)
    return holder in changes.holders if attribute is None else (holder, attribute) in changes.attributes


class _Changes(NamedTuple):
    """What the methods of a class may change in place, read in one walk of the class."""

    holders: frozenset[str]
    """``h`` of each ``<name>.h.<attribute>`` read or set and of each ``<name>.h[<key>]`` set or deleted."""
    attributes: frozenset[tuple[str, str]]
    """``(h, a)`` of each ``<name>.h.a`` set or deleted."""


_CHANGES: NodeMemo[ast.ClassDef, _Changes] = NodeMemo()
"""By class: asked for each attribute a test or a fold reads, of a class walked once."""


def _changes_in(owner: ast.ClassDef) -> _Changes:
    holders: set[str] = set()
    attributes: set[tuple[str, str]] = set()
    for node in descendants(owner):
        if not isinstance(node, (ast.Attribute, ast.Subscript)):
            continue
        held = node.value
        if not (isinstance(held, ast.Attribute) and isinstance(held.value, ast.Name)):
            continue
        stored = not isinstance(node.ctx, ast.Load)
        if isinstance(node, ast.Attribute) or stored:
            holders.add(held.attr)
        if isinstance(node, ast.Attribute) and stored:
            attributes.add((held.attr, node.attr))
    return _Changes(frozenset(holders), frozenset(attributes))


def _built_attribute(project: Project, owner: ClassRef, built: ast.Call, attribute: str) -> object:
    """The scalar that the instance ``built`` (a project class's constructor call in ``owner``)
    sets ``attribute`` to: a literal its ``__init__`` assigns, or a parameter it never rebinds and
    the call's argument for it (a literal, or a parameter of ``owner``'s ``__init__`` that every
    instance of ``owner`` gives one scalar: ``Block(attention=attention)``) or its default."""
    made = project.resolve_expr(built.func, owner.module)
    if not isinstance(made, ClassRef):
        return NOT_FOLDED
    assigned = project.attribute_values(made, attribute)
    init = project.find_method(made, "__init__")
    if len(assigned) != 1 or init is None or init.owner is None or assigned[0][0].node is not init.owner.node:
        return NOT_FOLDED
    value = assigned[0][1]
    if isinstance(value, ast.Name) and value.id not in binding_counts(init.node):
        passed = passed_arguments(built, init.node, is_method=True)
        defaults = {parameter.arg: default for parameter, default in parameter_defaults(init.node)}
        given = None if passed is None else passed.get(value.id, defaults.get(value.id))
        value = given if given is not None else value
        if given is not None and given in (passed or {}).values():
            constant = _owner_parameter(project, owner, given)  # `Block(attention=attention)`
            if constant is not NOT_KNOWN:
                return constant if isinstance(constant, _SCALARS) else NOT_FOLDED
    constant = literal_value(value) if not isinstance(value, ast.Name) else NOT_KNOWN
    return constant if constant is not NOT_KNOWN and isinstance(constant, _SCALARS) else NOT_FOLDED


def _owner_parameter(project: Project, owner: ClassRef, given: ast.expr) -> object:
    """The scalar ``given``, an argument of a call in ``owner``'s own ``__init__``, holds in every
    instance of ``owner`` the project builds, where it reads a parameter of that ``__init__`` never
    rebound there (:func:`~mslint.model.instances.constructor_values`); NOT_KNOWN otherwise."""
    init = project.find_method(owner, "__init__")
    if not isinstance(given, ast.Name) or init is None or init.owner is None or init.owner.node is not owner.node:
        return NOT_KNOWN
    if not init.node.lineno <= given.lineno <= (init.node.end_lineno or init.node.lineno):
        return NOT_KNOWN
    parameters = {a.arg for a in all_arguments(init.node.args)} - set(binding_counts(init.node))
    values = constructor_values(project, owner) if given.id in parameters else None
    value = None if values is None else values.get(given.id)
    return value.value if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT else NOT_KNOWN


def _self_attribute(expr: ast.expr, self_name: str | None) -> str | None:
    """The attribute ``expr`` reads where it is ``self.<attribute>``."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == self_name:
        return expr.attr
    return None
