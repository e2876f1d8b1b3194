"""Operators on tensors: ``in`` a tensor, ``%`` formatting, and the operators the syntax table
finds rejected or interpreted (``t << 1``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.abstract import (
    Kind,
)
from mslint.model.scope import GraphFunction
from mslint.model.walk import descendants
from mslint.rules.base import Finding, fallback_severity
from mslint.rules.unsupported_syntax.builtin_calls import is_one_tensor
from mslint.rules.unsupported_syntax.syntax_rows import measured


def operator_checks(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    yield from _percent_formatting(operation, function)
    yield from _measured_operator(operation, function)


def membership_in_tensors(compare: ast.Compare, function: GraphFunction) -> Iterator[Finding]:
    """``1 in x`` with ``x`` a tensor: STRICT rejects it, LAX runs it in the interpreter. Only a number
    on the left is taken for proof that ``x`` is a tensor and not a dict or tuple of graph values."""
    left = compare.left
    for operator, right in zip(compare.ops, compare.comparators):
        if (
            isinstance(operator, (ast.In, ast.NotIn))
            # A number: keys of a dict of graph values (``name in features``) are fine.
            and isinstance(left, ast.Constant)
            and isinstance(left.value, (int, float))
            and not isinstance(left.value, bool)
            and is_one_tensor(right, function)
        ):
            yield Finding(
                compare,
                "`in` over a tensor: STRICT rejects it, LAX runs it in the Python interpreter",
                hint="compare element by element with `ops.equal(x, value).any()`",
                severity=fallback_severity,
            )
            return
        left = right


def _percent_formatting(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    """``"%s" % x`` of a graph value: STRICT rejects it, LAX runs it in the interpreter, even for
    static parts of one (``"%s" % (x.shape,)``, measured)."""
    if (
        isinstance(operation.op, ast.Mod)
        and isinstance(operation.left, ast.Constant)
        and isinstance(operation.left.value, str)
        and any(
            isinstance(n, ast.Name) and function.kind(n) is Kind.GRAPH
            for n in (operation.right, *descendants(operation.right))
        )
    ):
        yield Finding(
            operation,
            "`%` formatting of a graph value: STRICT rejects it, LAX runs it in the Python interpreter",
            hint="print the tensor with `print(x)`, or format it in host code",
            severity=fallback_severity,
        )


def _measured_operator(operation: ast.BinOp, function: GraphFunction) -> Iterator[Finding]:
    """A binary operator on a graph value as the syntax table measured it (``t << 1``)."""
    if not any(function.kind(side) is Kind.GRAPH for side in (operation.left, operation.right)):
        return
    name = type(operation.op).__name__
    yield from measured(
        operation,
        f"the `{name}` operator on a graph value",
        f"expr.BinOp/tensor-{name.lower()}",
        function,
        hint="use the `mindspore.ops` operation (`ops.bitwise_left_shift`, ...)",
    )
