"""Python numbers that a function computes from the static shapes of its tensors.

In graph mode a tensor whose shape is static (no ``set_inputs`` with ``None``) gives Python ints
while compiling: ``b, n, d = x.shape``, ``x.shape[1]``, ``x.ndim`` (``x.dim()``), ``len(x.shape)`` and what is
computed from them with other constants (``n % self.landmarks``, ``n // 2``). The compiler folds a
test on them and never compiles the branch it does not take (mslint/data/folds-*.json, source
``shape``). Their values are read at the test, flow-sensitively: the function's values join every
binding of a name (``x = ops.pad(x, ...)`` later in the function), but the test sees the one the
statements before it bind, on the path to it, through the branch of each ``if`` before it that the
compiler folds. A binding this does not follow (in a loop, a branch not folded, an augmented
assignment) leaves the names it binds unknown, and a test on them undecided.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from mslint.model.abstract import (
    NOT_KNOWN,
    AbstractAny,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Kind,
)
from mslint.model.binder import target_names
from mslint.model.folds import NOT_FOLDED
from mslint.model.memo import NodeMemo
from mslint.model.module import is_self_attribute
from mslint.model.values import RANK_METHODS
from mslint.model.walk import descendants

_SHAPE_ATTRIBUTES = frozenset({"shape", "ndim"})
_UNKNOWN = AbstractAny(Kind.UNKNOWN)
_BLOCKS = ("body", "orelse", "finalbody")

Evaluate = Callable[[Mapping[str, AbstractValue], ast.expr], AbstractValue]
"""The value of an expression of the function, its local names holding the values given."""
Truth = Callable[[ast.expr], "bool | None"]
"""The truth the compiler folds the test of an ``if`` to, None where it does not fold it."""


class ShapeConstants:
    """The shape-derived constants of one function, evaluated with its parameters' values."""

    def __init__(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        parameters: Mapping[str, AbstractValue],
        self_name: str | None,
        evaluate: Evaluate,
        truth: Truth,
    ) -> None:
        self._function = function
        self._parameters = parameters
        self._self_name = self_name
        self._evaluate = evaluate
        self._truth = truth
        self._values: dict[int, object] = {}

    def reads_shape(self, expr: ast.expr) -> bool:
        """Whether ``expr`` is a number that reads a tensor's shape (``x.shape[1]``, ``x.ndim``,
        ``len(x.shape)``) or a local name that the function binds from one (``n`` of ``b, n, d =
        x.shape``), or is computed from them (``n % m``); not a test on them (``n > 1``)."""
        if not _numeric_form(expr):
            return False
        derived = _derived_names(self._function, self._self_name)
        return any(_reads_shape_here(node, derived, self._self_name) for node in descendants(expr))

    def value(self, expr: ast.expr) -> object:
        """The Python int or bool ``expr`` (which :meth:`reads_shape`) holds where it is read;
        :data:`NOT_FOLDED` where that is not known, or where an input is compiled with a dynamic
        shape (``set_inputs`` given ``None``: which of its dimensions stay constants is not measured)."""
        if any(isinstance(v, AbstractTensor) and v.dynamic for v in self._parameters.values()):
            return NOT_FOLDED
        known = self._values.get(id(expr))
        if known is None:
            known = self._values[id(expr)] = _python_number(self._value_at(expr))
        return known

    def _value_at(self, read: ast.expr) -> AbstractValue:
        """The value of ``read`` from what the statements before it on the path to it bind."""
        values = dict(self._parameters)
        block: list[ast.stmt] = self._function.body
        while True:
            holder = next((s for s in block if any(n is read for n in descendants(s))), None)
            if holder is None:
                return _UNKNOWN
            for statement in block[: block.index(holder)]:
                self._bind(statement, values)
            if isinstance(holder, (ast.For, ast.AsyncFor, ast.While)):
                values.update((name, _UNKNOWN) for name in _bound_names(holder))  # another iteration's
            inner = next((b for b in _blocks(holder) if any(n is read for s in b for n in descendants(s))), None)
            if inner is None:  # the statement's own expression: its test, its value
                return self._evaluate(values, read)
            block = inner

    def _bind(self, statement: ast.stmt, values: dict[str, AbstractValue]) -> None:
        """Update ``values`` with what ``statement`` binds: an assignment's, item by item where a
        tuple is unpacked; an ``if``'s, through the branch the compiler folds it to; any other
        binding statement leaves the names it binds unknown."""
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                _assign(target, statement.value, values, self._evaluate)
            return
        if isinstance(statement, ast.AnnAssign) and statement.value is not None:
            _assign(statement.target, statement.value, values, self._evaluate)
            return
        taken = self._truth(statement.test) if isinstance(statement, ast.If) else None
        if isinstance(statement, ast.If) and taken is not None:
            for inner in statement.body if taken else statement.orelse:
                self._bind(inner, values)
            return
        values.update((name, _UNKNOWN) for name in _bound_names(statement))


def _assign(target: ast.expr, value: ast.expr, values: dict[str, AbstractValue], evaluate: Evaluate) -> None:
    if isinstance(target, ast.Name):
        values[target.id] = evaluate(values, value)
        return
    if not isinstance(target, (ast.Tuple, ast.List)):
        values.update((name, _UNKNOWN) for name in target_names(target))
        return
    items = _items(value, values, evaluate)
    if items is None or len(items) != len(target.elts) or any(isinstance(e, ast.Starred) for e in target.elts):
        values.update((name, _UNKNOWN) for name in target_names(target))
        return
    for part, item in zip(target.elts, items):
        if isinstance(part, ast.Name):
            values[part.id] = item
        else:
            values.update((name, _UNKNOWN) for name in target_names(part))


def _items(value: ast.expr, values: Mapping[str, AbstractValue], evaluate: Evaluate) -> list[AbstractValue] | None:
    """The values a tuple unpacks into: a tuple written out, its starred parts spread
    (``*x.shape, self.heads``), or a sequence whose items are known (``x.shape``)."""
    if not isinstance(value, (ast.Tuple, ast.List)):
        whole = evaluate(values, value)
        return list(whole.items) if isinstance(whole, AbstractSequence) and whole.items is not None else None
    items: list[AbstractValue] = []
    for element in value.elts:
        if isinstance(element, ast.Starred):
            spread = _items(element.value, values, evaluate)
            if spread is None:
                return None
            items += spread
        else:
            items.append(evaluate(values, element))
    return items


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    return [block for field in _BLOCKS if isinstance(block := getattr(statement, field, None), list)]


def _bound_names(statement: ast.stmt) -> set[str]:
    return {n.id for n in descendants(statement) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}


def _python_number(value: AbstractValue) -> object:
    if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT and value.type in ("int", "bool"):
        return NOT_FOLDED if value.value is NOT_KNOWN else value.value
    return NOT_FOLDED


_DERIVED: NodeMemo[ast.FunctionDef | ast.AsyncFunctionDef, frozenset[str]] = NodeMemo()


def _derived_names(function: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str | None) -> frozenset[str]:
    """The local names some assignment of ``function`` binds from a tensor's shape (not from
    ``self.shape``, a primitive), directly or through another such name (memoized by function,
    whose first parameter is its ``self`` where it has one)."""
    return _DERIVED(function, lambda node: _find_derived(node, self_name))


def _find_derived(function: ast.FunctionDef | ast.AsyncFunctionDef, self_name: str | None) -> frozenset[str]:
    # Each assignment's value is walked once: whether it reads a shape itself, and the names it reads.
    assignments = []
    for node in descendants(function):
        if not isinstance(node, (ast.Assign, ast.AnnAssign)) or node.value is None:
            continue
        read = list(descendants(node.value))
        reads_shape = any(_reads_shape_here(n, frozenset(), self_name) for n in read)
        names = frozenset(n.id for n in read if isinstance(n, ast.Name))
        for target in [node.target] if isinstance(node, ast.AnnAssign) else node.targets:
            assignments.append((set(target_names(target)), reads_shape, names))
    derived: set[str] = set()
    grown = True
    while grown:
        grown = False
        for bound, reads_shape, names in assignments:
            if bound - derived and (reads_shape or not names.isdisjoint(derived)):
                derived |= bound
                grown = True
    return frozenset(derived)


def _reads_shape_here(node: ast.AST, derived: frozenset[str] | set[str], self_name: str | None) -> bool:
    """Whether ``node`` is a read of a shape (``x.shape``, ``x.ndim``, ``x.dim()``) or of a name in
    ``derived``."""
    if isinstance(node, ast.Name):
        return node.id in derived
    if isinstance(node, ast.Call):
        return _rank_call(node, self_name)
    return isinstance(node, ast.Attribute) and node.attr in _SHAPE_ATTRIBUTES and not is_self_attribute(node, self_name)


def _numeric_form(expr: ast.expr) -> bool:
    """Whether ``expr`` is of a form that may compute a number: a name, an attribute, an item,
    arithmetic, ``len(...)``."""
    if isinstance(expr, ast.UnaryOp):
        return isinstance(expr.op, (ast.USub, ast.UAdd))
    if isinstance(expr, ast.Call):
        return (isinstance(expr.func, ast.Name) and expr.func.id == "len") or _rank_call(expr, None)
    return isinstance(expr, (ast.Name, ast.Attribute, ast.Subscript, ast.BinOp))


def _rank_call(call: ast.Call, self_name: str | None) -> bool:
    """Whether ``call`` is ``x.dim()`` or ``x.ndimension()`` of a tensor (measured on 2.10: the
    compiler folds a test on it as on ``x.ndim``), not a method of ``self``."""
    func = call.func
    return (
        isinstance(func, ast.Attribute)
        and func.attr in RANK_METHODS
        and not call.args
        and not call.keywords
        and not is_self_attribute(func, self_name)
    )
