"""What a name or attribute that a constructor's code reads holds there, as the host runs it
once: the value of the last statement before the read that binds it, on the path the code takes.

The host runs ``__init__`` (and the helpers it calls) top to bottom, once, and the first
iteration of a loop first: a read of ``patch_size`` in ``Stage(patch_size=patch_size)`` sees
what ``patch_size = merge_size[i]`` earlier in the loop's body assigned, else what the statements
before the loop did, ``if patch_size is None: patch_size = [4]`` through the branch its test
takes where that test is decided. A binding this cannot read as one value (a tuple unpacked, an
augmented assignment, a loop's own variable, a branch whose test is not decided) makes the value
not known; a statement that binds and holds the read (``x = f(x)``) reads before it binds.

Any other host code (a helper, a script) gets the same answer where nothing on the way needs
deciding (:func:`straight_line_value`): the statements of its body before the read run once, in
order, and none of them binds the name in a loop, a branch or an unpacking. Every run of such
code, not only the first, reads that value there.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import NamedTuple, Union

from mslint.model.memo import NodeMemo
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


Scope = Union[ast.Module, ast.FunctionDef, ast.AsyncFunctionDef]
_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class _StraightLine(NamedTuple):
    """The names a scope's statements read and bind, statement by statement (of its own body)."""

    holding: dict[int, int]
    """Each name the scope reads (by node id), but not in a nested function, lambda or class:
    the index of the statement of the body that holds the read."""
    bindings: dict[str, list[tuple[int, ast.expr | None]]]
    """Each name the body binds: the index of each statement that binds it, in order, with the
    value it assigns where it is a plain assignment to the name (``kernel = Tensor(kernel)``) and
    binds it nowhere else (None for anything else: a loop, an unpacking, a comprehension's own
    variable, a nested function's name)."""


_STRAIGHT_LINES: NodeMemo[ast.AST, _StraightLine] = NodeMemo()


def straight_line_value(scope: Scope, read: ast.Name) -> ast.expr | None:
    """The value that the last statement of ``scope``'s body before the one that holds ``read``
    assigns its name, where each statement there runs once, in order, up to the read: that
    statement is a plain assignment to the name, no statement between binds it, and the one
    that holds the read binds it only after reading it (``kernel = kernel / kernel.sum()``).
    None where that is not so: a loop, a branch, an unpacking or a comprehension binds it on
    the way, nothing binds it before the read (a parameter), or the read is in a nested
    function, lambda or class (it runs when that is called)."""
    lines = _STRAIGHT_LINES(scope, _straight_line)
    index = lines.holding.get(id(read))
    if index is None:
        return None
    found: ast.expr | None = None
    for at, value in lines.bindings.get(read.id, ()):
        if at == index:
            holder = scope.body[index]
            reads_first = isinstance(holder, ast.Assign) and any(node is read for node in ast.walk(holder.value))
            return found if value is not None and reads_first else None
        if at > index:
            break
        found = value
    return found


def _straight_line(scope: ast.AST) -> _StraightLine:
    assert isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef))
    holding: dict[int, int] = {}
    bindings: dict[str, list[tuple[int, ast.expr | None]]] = {}
    for index, statement in enumerate(scope.body):
        stores: dict[str, int] = {}
        pending: list[tuple[ast.AST, bool]] = [(statement, False)]
        while pending:
            node, nested = pending.pop()
            if isinstance(node, ast.Name):
                if isinstance(node.ctx, ast.Load) and not nested:
                    holding[id(node)] = index
                elif not isinstance(node.ctx, ast.Load):
                    stores[node.id] = stores.get(node.id, 0) + 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                stores[node.name] = stores.get(node.name, 0) + 1
            inner = nested or isinstance(node, _NESTED_SCOPES)
            pending.extend((child, inner) for child in ast.iter_child_nodes(node))
        for name, count in stores.items():
            value = None
            if isinstance(statement, ast.Assign):
                plain = [t for t in statement.targets if isinstance(t, ast.Name) and t.id == name]
                value = statement.value if len(plain) == count else None
            bindings.setdefault(name, []).append((index, value))
    return _StraightLine(holding, bindings)
