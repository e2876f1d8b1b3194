"""Branches of a class's ``__init__`` that its instances decide.

``__init__`` runs once per instance, as Python, with what the program builds it with: a branch
on a constructor argument (``if norm_type == "ln": self.norm = nn.LayerNorm(dim)``, or on
``self.norm_type`` set from it) runs only for the instances whose arguments take it. Where the
program shows every instance (:func:`~mslint.model.instances.built_instances`) and each one's
argument decides the test, a line in a branch none takes runs for no instance it shows (a class
no code runs, built with its defaults, may still take it: a latent failure); where no instance,
or not every argument, is known, the line runs only for the values that take the branch, which
the program does not show. Tests are read as Python reads them: names of ``__init__``'s parameters,
``self`` attributes set once from them, literals, comparisons, ``not``, ``and`` and ``or``.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from mslint.model.abstract import NOT_KNOWN, AbstractScalar
from mslint.model.instances import built_instances
from mslint.model.module import ModuleInfo
from mslint.model.project import ClassRef, FunctionNode, Project
from mslint.model.walk import descendants

_COMPARISONS: dict[type[ast.cmpop], Callable[[object, object], object]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
    ast.In: lambda a, b: operator.contains(b, a),  # type: ignore[arg-type]
    ast.NotIn: lambda a, b: not operator.contains(b, a),  # type: ignore[arg-type]
}


@dataclass(frozen=True)
class InitBranch:
    """The test of an ``if`` in ``__init__`` around a line, and whether the instances take it."""

    test: ast.expr
    taken: bool | None
    """True where some instance runs the line, False where none does, None where not known."""


def init_branch(project: Project, module: ModuleInfo, node: ast.AST) -> InitBranch | None:
    """A test on constructor arguments around ``node`` in ``__init__`` that no instance the
    program builds takes (``taken`` False), else the outermost that the instances do not decide
    (``taken`` None); None where every such test is taken by an instance, or there is none."""
    line = getattr(node, "lineno", None)
    found = None if line is None else _init_holding(module, line)
    if found is None:
        return None
    cls, init = found
    parameters = {a.arg for a in (*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs)}
    self_name = init.args.args[0].arg if init.args.args else None
    attributes = _attributes_from(init, parameters, self_name)
    undecided = None
    for branch in descendants(init):
        if not isinstance(branch, ast.If) or not _reads_only(branch.test, parameters, attributes, self_name):
            continue
        inside_body = any(n is node for part in branch.body for n in descendants(part))
        if not inside_body and not any(n is node for part in branch.orelse for n in descendants(part)):
            continue
        taken = _taken(project, cls, branch.test, inside_body, attributes, self_name)
        if taken is False:
            return InitBranch(branch.test, False)
        if taken is None and undecided is None:
            undecided = InitBranch(branch.test, None)
    return undecided


def _init_holding(module: ModuleInfo, line: int) -> tuple[ClassRef, FunctionNode] | None:
    cls = module.top_level_class_at(line)
    if cls is None:
        return None
    for init in cls.body:
        if (
            isinstance(init, ast.FunctionDef)
            and init.name == "__init__"
            and init.lineno <= line <= (init.end_lineno or init.lineno)
        ):
            return ClassRef(module, cls), init
    return None


def _attributes_from(init: FunctionNode, parameters: set[str], self_name: str | None) -> dict[str, str]:
    """The ``self`` attributes ``__init__`` sets once, to one of its parameters, by parameter."""
    assigned: dict[str, list[ast.expr]] = {}
    for node in descendants(init):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
                    continue
                if target.value.id == self_name:
                    assigned.setdefault(target.attr, []).append(node.value)
    return {
        attribute: values[0].id
        for attribute, values in assigned.items()
        if len(values) == 1 and isinstance(values[0], ast.Name) and values[0].id in parameters
    }


def _reads_only(test: ast.expr, parameters: set[str], attributes: Mapping[str, str], self_name: str | None) -> bool:
    """Whether ``test`` is made of what :func:`_value` reads, and reads a constructor argument."""
    reads = False
    for node in ast.walk(test):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == self_name:
            if node.attr not in attributes:
                return False
            reads = True
        elif isinstance(node, ast.Name):
            if node.id != self_name and node.id not in parameters:
                return False
            reads = reads or node.id in parameters
        elif not isinstance(
            node,
            (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.Constant, ast.Tuple, ast.List, ast.Load, ast.cmpop, ast.boolop),
        ) and not isinstance(node, ast.Not):
            return False
    return reads


def _taken(
    project: Project,
    cls: ClassRef,
    test: ast.expr,
    inside_body: bool,
    attributes: Mapping[str, str],
    self_name: str | None,
) -> bool | None:
    built = built_instances(project, cls)
    if not built:
        return None
    outcomes = []
    for _, _, given in built:
        values = {name: value.value for name, value in given.items() if isinstance(value, AbstractScalar)}
        truth = _value(test, values, attributes, self_name)
        if truth is NOT_KNOWN:
            return None
        outcomes.append(bool(truth) == inside_body)
    return any(outcomes)


def _value(
    expr: ast.expr, values: Mapping[str, object], attributes: Mapping[str, str], self_name: str | None
) -> object:
    """``expr`` as Python computes it from the arguments ``values``; NOT_KNOWN where it cannot."""
    if isinstance(expr, ast.Constant):
        return expr.value
    if isinstance(expr, ast.Name):
        return values.get(expr.id, NOT_KNOWN)
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == self_name:
        return values.get(attributes.get(expr.attr, ""), NOT_KNOWN)
    if isinstance(expr, (ast.Tuple, ast.List)):
        items = [_value(item, values, attributes, self_name) for item in expr.elts]
        return NOT_KNOWN if any(item is NOT_KNOWN for item in items) else tuple(items)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        operand = _value(expr.operand, values, attributes, self_name)
        return NOT_KNOWN if operand is NOT_KNOWN else not operand
    if isinstance(expr, ast.BoolOp):
        for position, each in enumerate(expr.values):
            value = _value(each, values, attributes, self_name)
            if value is NOT_KNOWN:
                return NOT_KNOWN
            last = position == len(expr.values) - 1
            if last or (bool(value) if isinstance(expr.op, ast.Or) else not value):
                return value
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and type(expr.ops[0]) in _COMPARISONS:
        left = _value(expr.left, values, attributes, self_name)
        right = _value(expr.comparators[0], values, attributes, self_name)
        if left is NOT_KNOWN or right is NOT_KNOWN:
            return NOT_KNOWN
        try:
            return _COMPARISONS[type(expr.ops[0])](left, right)
        except TypeError:
            return NOT_KNOWN
    return NOT_KNOWN
