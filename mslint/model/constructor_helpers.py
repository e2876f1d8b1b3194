"""The methods a constructor calls on its instance to build parts of it (ResNet's
``self.layer1 = self._make_layer(block, 64, layers[0])``): what they build is built by the
constructor, with the arguments its calls of them pass.

A helper is a plain method of a class of a module's top level (not ``__init__``, not decorated)
that the class's own ``__init__`` calls on ``self``; its calls are those. ``self.in_channels``,
read by a helper, holds at the helper's first call what the last ``self.in_channels = ...`` of
``__init__``'s body before that call assigns, where the helper assigns it nowhere before the
read: an instance built by the helper's first call reads that value. Where the helper assigns
it before the read (``if stride != 1: self.downsample = nn.Conv2d(...)``), it holds what the
helper's statements assign on the path their tests take at that call, where each is decided.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import NamedTuple

from mslint.model.assigned_before import NOTHING, assigned_before
from mslint.model.binder import positional_names, written_arguments
from mslint.model.module import ModuleInfo, is_self_attribute
from mslint.model.project import ClassRef, FunctionNode, FunctionRef
from mslint.model.walk import descendants


def constructor_helper(module: ModuleInfo, function: ast.AST) -> FunctionRef | None:
    """``function`` as a helper of its class's constructor (module doc); None where it is not one."""
    if not isinstance(function, ast.FunctionDef) or function.decorator_list or function.name == "__init__":
        return None
    owner = next((c for c in module.classes.values() if any(s is function for s in c.body)), None)
    if owner is None or owner not in module.tree.body:
        return None
    helper = FunctionRef(module, function, ClassRef(module, owner))
    return helper if helper_calls(helper) else None


def helper_calls(helper: FunctionRef) -> list[ast.Call]:
    """The calls of ``helper`` on ``self`` in its class's own ``__init__``, in order."""
    init = _init_of(helper)
    if init is None:
        return []
    self_name = _self_name(init)
    return [
        node
        for node in descendants(init)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == helper.node.name
        and is_self_attribute(node.func, self_name)
    ]


def handed_to_helpers(cls: ClassRef, init: FunctionNode, parameter: str) -> list[tuple[FunctionRef, str]]:
    """The helpers of ``cls`` that ``init`` hands its ``parameter`` to, with the helper's parameter
    that holds it (``self._make_layer(block, 64, 3)``: ``_make_layer``, ``block``)."""
    found = []
    for statement in cls.node.body:
        helper = constructor_helper(cls.module, statement)
        if helper is None:
            continue
        for call in helper_calls(helper):
            written = written_arguments(call, helper.node, True)
            found += [
                (helper, name)
                for name, value in written.items()
                if isinstance(value, ast.Name) and value.id == parameter
            ]
    return found


class HeldAtFirstCall(NamedTuple):
    """What ``self.in_channels``, read in a helper, holds at the helper's first call."""

    value: ast.expr
    in_helper: bool
    """Whether ``value`` is written in the helper (read with its arguments), not in ``__init__``."""


def attribute_at_first_call(
    helper: FunctionRef, read: ast.expr, truth: Callable[[ast.expr], bool | None]
) -> HeldAtFirstCall | None:
    """What ``read`` (``self.in_channels`` in the helper) holds at the helper's first call: the
    value the helper's own statements before the read last assign it, on the path the tests
    there take (``truth``: whether a test of the helper holds at that call, None where not known),
    else the value the last ``self.in_channels = value`` of ``__init__``'s body before that call
    assigns (module doc); None where that is not known."""
    init = _init_of(helper)
    calls = helper_calls(helper)
    if init is None or not calls or not is_self_attribute(read, _self_name(helper.node)):
        return None
    assert isinstance(read, ast.Attribute)
    attribute, self_name = read.attr, _self_name(helper.node)
    if any(_assigns(node, attribute, self_name) for node in _before(helper.node, read)):
        here = assigned_before(helper.node.body, read, lambda node: _assigns(node, attribute, self_name), truth)
        if here is not NOTHING:
            return None if here is None else HeldAtFirstCall(here, True)
    first = calls[0]
    value = None
    for statement in init.body:
        if any(node is first for node in ast.walk(statement)):
            return None if value is None else HeldAtFirstCall(value, False)
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and _assigns(statement.targets[0], attribute, _self_name(init))
        ):
            value = statement.value
        elif any(_assigns(node, attribute, _self_name(init)) for node in ast.walk(statement)):
            value = None  # assigned in a branch or a loop: not known
    return None


def _before(function: FunctionNode, node: ast.AST) -> list[ast.AST]:
    """The nodes of ``function`` that come before ``node`` in the source."""
    where = (node.lineno, node.col_offset) if isinstance(node, ast.expr) else (0, 0)
    return [n for n in descendants(function) if isinstance(n, ast.expr) and (n.lineno, n.col_offset) < where]


def _assigns(node: ast.AST, attribute: str, self_name: str | None) -> bool:
    """Whether ``node`` is ``self.attribute`` stored to."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and node.attr == attribute
        and is_self_attribute(node, self_name)
    )


def _init_of(helper: FunctionRef) -> FunctionNode | None:
    owner = helper.owner
    if owner is None:
        return None
    return next(
        (s for s in owner.node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"),
        None,
    )


def _self_name(method: FunctionNode) -> str | None:
    names = positional_names(method, False)
    return names[0] if names else None
