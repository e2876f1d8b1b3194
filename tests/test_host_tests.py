"""What a test of a constructor's code comes to, from what its parts are known to hold."""

from __future__ import annotations

import ast

import pytest

from mslint.model.abstract import AbstractValue, literal
from mslint.model.host_tests import truth
from mslint.model.values import UNKNOWN

KNOWN = {"one": literal(1), "none": literal(None), "dims": literal([64, 128]), "empty": literal([])}


def _value(expr: ast.expr) -> AbstractValue:
    if isinstance(expr, ast.Name):
        return KNOWN.get(expr.id, UNKNOWN)
    if isinstance(expr, ast.Constant):
        return literal(expr.value)
    return UNKNOWN


@pytest.mark.parametrize(
    ("test", "expected"),
    [
        ("one == 1", True),
        ("one != 1", False),
        ("one < 2", True),
        ("none is None", True),
        ("dims is not None", True),
        ("flag is None", None),
        ("not one", False),
        ("dims", True),
        ("empty", False),
        ("flag or one == 1", True),
        ("flag and one == 1", None),
        ("flag and one == 2", False),
        ("one < 'a'", None),
        ("0 < one < 2", None),
    ],
)
def test_a_test_is_decided_where_its_parts_are_known(test: str, expected: bool | None) -> None:
    assert truth(ast.parse(test, mode="eval").body, _value) is expected
