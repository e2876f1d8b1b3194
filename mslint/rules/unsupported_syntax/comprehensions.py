"""List and dict comprehensions with several ``for`` clauses, list comprehensions with an ``if`` on
a number, and ``lambda`` in a ``for`` loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from mslint.model.abstract import (
    Kind,
)
from mslint.model.scope import GraphFunction
from mslint.rules.base import Finding
from mslint.rules.unsupported_syntax.syntax_rows import measured


def comprehension_checks(comprehension: ast.ListComp | ast.DictComp, function: GraphFunction) -> Iterator[Finding]:
    if len(comprehension.generators) > 1:
        yield from _nested_comprehension(comprehension, function)
    elif isinstance(comprehension, ast.ListComp):
        yield from _filter_on_a_number(comprehension, function)


def lambda_checks(node: ast.Lambda, function: GraphFunction) -> Iterator[Finding]:
    yield from measured(
        node,
        "a `lambda`",
        "expr.Lambda/local",
        function,
        hint="define the function with `def`, or the `lambda` before the loop",
    )


_NESTED_ROWS = {
    ast.ListComp: ("list", "comprehension.list/nested"),
    ast.DictComp: ("dict", "comprehension.dict/nested"),
}
"""What each comprehension is called, and the row of the syntax table that measures it with two
``for`` clauses."""
_NESTED_HINTS = {
    ast.ListComp: "nest two comprehensions (`[[f(i, j) for j in b] for i in a]`) or write the loops out",
    ast.DictComp: "write the loops out, setting `d[key] = value` in the inner one",
}


def _nested_comprehension(comprehension: ast.ListComp | ast.DictComp, function: GraphFunction) -> Iterator[Finding]:
    """A list or dict comprehension with several ``for`` clauses, where the syntax table finds it rejected."""
    kind, row = _NESTED_ROWS[type(comprehension)]
    yield from measured(
        comprehension,
        f"a {kind} comprehension with {len(comprehension.generators)} `for` clauses",
        row,
        function,
        hint=_NESTED_HINTS[type(comprehension)],
        position="construct",
    )


def _filter_on_a_number(comprehension: ast.ListComp, function: GraphFunction) -> Iterator[Finding]:
    """A list comprehension of graph values whose ``if`` clause tests a number, not a bool
    (``[x * i for i in range(4) if i % 2]``), where the syntax table finds it rejected. Measured on
    2.10: ``if i % 2 == 1``, ``if not i % 2``, ``if bool(i % 2)`` and a comprehension of numbers
    compile."""
    (generator,) = comprehension.generators
    numbers = _number_targets(generator, function)
    if function.kind(comprehension.elt) is Kind.GRAPH and any(
        _tests_a_number(condition, numbers) for condition in generator.ifs
    ):
        yield from measured(
            comprehension,
            "a list comprehension whose `if` clause tests a number",
            "comprehension.list/if-constant",
            function,
            hint="compare the number (`if i % 2 == 1`) or convert it with `bool(...)`",
        )


def _number_targets(generator: ast.comprehension, function: GraphFunction) -> frozenset[str]:
    """The name a ``for`` clause binds to numbers: over ``range(...)`` or a tuple or list of numbers."""
    target, source = generator.target, generator.iter
    over_numbers = (isinstance(source, ast.Call) and function.qualname(source.func) == "builtins.range") or (
        isinstance(source, (ast.Tuple, ast.List)) and all(_is_number(e, frozenset()) for e in source.elts)
    )
    return frozenset({target.id}) if over_numbers and isinstance(target, ast.Name) else frozenset()


def _tests_a_number(condition: ast.expr, numbers: frozenset[str]) -> bool:
    if isinstance(condition, ast.BoolOp):
        return any(_tests_a_number(value, numbers) for value in condition.values)
    return _is_number(condition, numbers)


def _is_number(expr: ast.expr, numbers: frozenset[str]) -> bool:
    """An int or float literal, one of ``numbers``, or arithmetic on those."""
    if isinstance(expr, ast.Constant):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, ast.Name):
        return expr.id in numbers
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd, ast.Invert)):
        return _is_number(expr.operand, numbers)
    return isinstance(expr, ast.BinOp) and _is_number(expr.left, numbers) and _is_number(expr.right, numbers)
