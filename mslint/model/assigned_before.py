"""What a name or attribute that a constructor's code reads holds there, as the host runs it
once: the value of the last statement before the read that binds it, on the path the code takes.

The host runs ``__init__`` (and the helpers it calls) top to bottom, once, and the first
iteration of a loop first: a read of ``patch_size`` in ``Stage(patch_size=patch_size)`` sees
what ``patch_size = merge_size[i]`` earlier in the loop's body assigned, else what the statements
before the loop did, ``if patch_size is None: patch_size = [4]`` through the branch its test
takes where that test is decided. A binding this cannot read as one value (a tuple unpacked, an
augmented assignment, a loop's own variable, a branch whose test is not decided) makes the value
not known; a statement that binds and holds the read (``x = f(x)``) reads before it binds.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from mslint.model.module import is_self_attribute

NOTHING = ast.Constant(value=None)
"""Stands for no binding before the read on the path taken (never returned as a value)."""

_BLOCKS = ("body", "orelse", "finalbody")


def assigned_before(
    block: list[ast.stmt],
    read: ast.AST | None,
    binds: Callable[[ast.AST], bool],
    truth: Callable[[ast.expr], bool | None],
) -> ast.expr | None:
    """The value the statements of ``block`` before the one that holds ``read`` (all of them
    where ``read`` is None) last bind, through the statement that holds it (the branch of an
    ``if``, a loop's body in its first iteration) and the branch of each ``if`` before it whose
    test ``truth`` decides (module doc); :data:`NOTHING` where none binds on that path, None
    where that is not known. ``binds``: whether a node stores the name or attribute."""
    value: ast.expr | None = NOTHING
    for statement in block:
        if read is not None and any(node is read for node in ast.walk(statement)):
            inner = _through(statement, read, binds, truth)
            return value if inner is NOTHING else inner
        if not any(binds(node) for node in ast.walk(statement)):
            continue
        if isinstance(statement, ast.Assign) and any(binds(target) for target in statement.targets):
            value = statement.value  # `self.num_features = self.embed_dim = embed_dim` binds both
        elif isinstance(statement, ast.If):
            taken = truth(statement.test)
            if taken is None:
                return None
            inner = assigned_before(statement.body if taken else statement.orelse, None, binds, truth)
            value = value if inner is NOTHING else inner
        else:
            return None
    return value


def _through(
    statement: ast.stmt, read: ast.AST, binds: Callable[[ast.AST], bool], truth: Callable[[ast.expr], bool | None]
) -> ast.expr | None:
    """What the parts of ``statement`` that run before ``read`` bind: :data:`NOTHING` for a
    simple statement (it reads first), the branch or body that holds the read otherwise."""
    if isinstance(statement, (ast.For, ast.AsyncFor)) and any(binds(node) for node in ast.walk(statement.target)):
        return None  # the loop's own variable: the caller binds it to its first item
    for name in _BLOCKS:
        inner: list[ast.stmt] = getattr(statement, name, None) or []
        if any(node is read for part in inner for node in ast.walk(part)):
            if name != "body" and not isinstance(statement, ast.If):
                return None  # a loop's `else`, a `finally`: after the body, which may bind
            return assigned_before(inner, read, binds, truth)
    if isinstance(statement, (ast.Try, ast.With, ast.AsyncWith, ast.While)) and any(
        binds(node) for node in ast.walk(statement)
    ):
        return None
    return NOTHING


def binding_of(read: ast.expr, self_name: str | None) -> Callable[[ast.AST], bool] | None:
    """Whether a node binds what ``read`` reads: a name, or, with ``self_name``, an attribute of
    ``self`` (``self.dim``); None for any other read."""
    if isinstance(read, ast.Name):
        name = read.id
        return lambda node: isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name
    if self_name is None or not isinstance(read, ast.Attribute) or not is_self_attribute(read, self_name):
        return None
    return attribute_binding(read.attr, self_name)


def attribute_binding(attribute: str, self_name: str) -> Callable[[ast.AST], bool]:
    """Whether a node binds ``self.attribute``, ``self`` being named ``self_name``."""
    return lambda node: (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and node.attr == attribute
        and is_self_attribute(node, self_name)
    )
