"""What a test in a constructor's code comes to in Python, from what its parts are known to hold
(``if ws == 1:`` in ``__init__``, ``stride != 1 or self.in_channels != channels * expansion`` in
a helper, ``1 if i % 2 == 1 else wss[k]`` as an argument): the host runs ``__init__`` whole, so
each test takes one branch, the one a first instance's values decide (:mod:`mslint.model.instances`).

A comparison of known numbers, strings or None, ``is None`` and ``is not None``, ``not``, ``and``
and ``or`` (an operand that decides is enough), and the truth of a known literal or of a sequence of
known length are decided; anything else is not (None).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from mslint.model.abstract import NOT_KNOWN, AbstractReference, AbstractScalar, AbstractSequence, AbstractValue

_COMPARISONS: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def truth(test: ast.expr, value: Callable[[ast.expr], AbstractValue]) -> bool | None:
    """Whether ``test`` holds, ``value`` giving what its parts hold; None where that is not known."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        operand = truth(test.operand, value)
        return None if operand is None else not operand
    if isinstance(test, ast.BoolOp):
        deciding = isinstance(test.op, ast.Or)  # the truth that ends an `or`; falsehood ends an `and`
        truths = [truth(operand, value) for operand in test.values]
        if deciding in truths:
            return deciding
        return None if None in truths else not deciding
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        return _compared(test.ops[0], value(test.left), value(test.comparators[0]))
    return _truth_of(value(test))


def _compared(op: ast.cmpop, left: AbstractValue, right: AbstractValue) -> bool | None:
    if isinstance(op, (ast.Is, ast.IsNot)):
        sides = [_is_none(left), _is_none(right)]
        if None in sides or sides == [False, False]:
            return None  # two values neither None: the same object or not, it cannot say
        return (sides[0] == sides[1]) == isinstance(op, ast.Is)
    compare = _COMPARISONS.get(type(op))
    first, second = _literal(left), _literal(right)
    if compare is None or first is NOT_KNOWN or second is NOT_KNOWN:
        return None
    try:
        return bool(compare(first, second))
    except TypeError:  # `1 < "a"`: the host fails there, it takes no branch
        return None


def _is_none(value: AbstractValue) -> bool | None:
    if isinstance(value, AbstractScalar) and value.value is not NOT_KNOWN:
        return value.type == "None"
    if isinstance(value, (AbstractSequence, AbstractReference)):
        return False  # what a call builds may be None: a function's result
    return None


def _literal(value: AbstractValue) -> object:
    return value.value if isinstance(value, AbstractScalar) else NOT_KNOWN


def _truth_of(value: AbstractValue) -> bool | None:
    if isinstance(value, AbstractScalar) and value.value is not NOT_KNOWN:
        return bool(value.value)
    if isinstance(value, AbstractSequence) and value.items is not None:
        return bool(value.items)
    if isinstance(value, AbstractReference):
        return True
    return None
