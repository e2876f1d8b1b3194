"""The n-tuple helpers of timm's idiom, which PyTorch ports and MindSpore model zoos copy:

    def _ntuple(n):
        def parse(x):
            if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
                return tuple(x)
            return tuple(repeat(x, n))
        return parse

    to_2tuple = _ntuple(2)

``to_2tuple(7)`` is ``(7, 7)``, ``to_2tuple([4, 2])`` is ``(4, 2)``: a constructor that sizes its
layers with one (``img_size = to_2tuple(img_size)``) is followed through it. A helper is one where
a name of a module's top level is bound once, to the call of a function of the project with one
literal int, and that function only defines the inner function it returns, which ends by
returning ``tuple(repeat(x, n))`` of its one parameter and the outer one, after returning a
sequence as a tuple (``tuple(x)``) or as is (mindcv's ``return x``).
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from mslint.model.abstract import NOT_KNOWN, AbstractScalar, AbstractSequence, AbstractValue, sequence
from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode, FunctionRef, Project, qualified_name


class NTuple(NamedTuple):
    """A helper of the module doc."""

    size: int
    converts: bool
    """Whether it returns a sequence it is given as a tuple (timm's ``tuple(x)``), not as is."""

    def of(self, value: AbstractValue) -> AbstractValue | None:
        """What the helper returns given ``value``; None where that is not known."""
        if isinstance(value, AbstractSequence) and value.items is not None:
            return sequence("tuple", value.items) if self.converts else value
        known = value.value if isinstance(value, AbstractScalar) else NOT_KNOWN
        if type(known) in (int, float):
            return sequence("tuple", (value,) * self.size)
        return None


def ntuple_helper(project: Project, func: ast.expr, module: ModuleInfo) -> NTuple | None:
    """The helper ``func`` names (``to_2tuple``); None where it names none."""
    qualname = qualified_name(func, module)
    found = project.module_object(qualname, module) if qualname else None
    if found is None or found[2] or len(found[1]) != 1:
        return None
    home, (value,), _ = found
    if not (isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords):
        return None
    size = value.args[0]
    maker = project.resolve_expr(value.func, home)
    if not (isinstance(size, ast.Constant) and type(size.value) is int and 0 < size.value <= _LONGEST):
        return None
    converts = _converts(maker.node) if isinstance(maker, FunctionRef) else None
    return None if converts is None else NTuple(size.value, converts)


_LONGEST = 8
"""The longest tuple a helper makes that is followed: sizes of images, kernels and windows."""


def _converts(maker: FunctionNode) -> bool | None:
    """Whether ``maker``, the ``_ntuple`` of the module doc, returns a sequence as a tuple (or as
    is: False); None where it is no such function."""
    if not _one_parameter(maker):
        return None
    count = maker.args.args[0].arg
    body = [s for s in maker.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(body) != 2 or not isinstance(body[0], ast.FunctionDef) or not isinstance(body[1], ast.Return):
        return None
    inner, returned = body
    assert isinstance(inner, ast.FunctionDef) and isinstance(returned, ast.Return)
    if not (isinstance(returned.value, ast.Name) and returned.value.id == inner.name and _one_parameter(inner)):
        return None
    item = inner.args.args[0].arg
    if len(inner.body) != 2 or not isinstance(inner.body[0], ast.If) or not isinstance(inner.body[1], ast.Return):
        return None
    test, last = inner.body
    assert isinstance(test, ast.If) and isinstance(last, ast.Return)
    if test.orelse or len(test.body) != 1 or not isinstance(test.body[0], ast.Return):
        return None
    if _called(last.value, "tuple", ["repeat"]) != [item, count]:
        return None
    (kept_return,) = test.body
    assert isinstance(kept_return, ast.Return)
    kept = kept_return.value
    if isinstance(kept, ast.Name) and kept.id == item:
        return False
    return True if _called(kept, "tuple", []) == [item] else None


def _one_parameter(function: FunctionNode) -> bool:
    arguments = function.args
    return len(arguments.args) == 1 and not (
        arguments.posonlyargs or arguments.vararg or arguments.kwonlyargs or arguments.kwarg
    )


def _called(value: ast.expr | None, name: str, inner: list[str]) -> list[str | None] | None:
    """The names ``value`` passes, where it is ``name(...)`` of names, or ``name(inner[0](...))``
    (``tuple(repeat(x, n))``, ``repeat`` read by name or as ``itertools.repeat``); None otherwise."""
    if not isinstance(value, ast.Call) or value.keywords:
        return None
    func = value.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    if called != name:
        return None
    if inner:
        return _called(value.args[0], inner[0], inner[1:]) if len(value.args) == 1 else None
    return [a.id if isinstance(a, ast.Name) else None for a in value.args]
