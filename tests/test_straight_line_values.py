"""What a name holds where code reads it, when the statements before the read run once, in order
(:func:`mslint.model.assigned_before.straight_line_value`)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from mslint.model.assigned_before import straight_line_value


def reached(source: str) -> str | None:
    """The value the read of ``x`` marked ``# read`` gets, as source; None where it is not one."""
    tree = ast.parse(textwrap.dedent(source))
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef)
    line = next(i for i, text in enumerate(textwrap.dedent(source).splitlines(), 1) if "# read" in text)
    read = next(
        node
        for node in ast.walk(function)
        if isinstance(node, ast.Name) and node.id == "x" and isinstance(node.ctx, ast.Load) and node.lineno == line
    )
    value = straight_line_value(function, read)
    return None if value is None else ast.unparse(value)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        pytest.param("def f(a):\n    x = a\n    x = g(x)\n    return x  # read\n", "g(x)", id="last-binding"),
        pytest.param("def f(a):\n    x = a\n    x = x / 2  # read\n", "a", id="rebinding-reads-first"),
        pytest.param("def f(a):\n    x = a\n    if a:\n        return x  # read\n", "a", id="read-in-a-branch"),
        pytest.param("def f(a):\n    return x  # read\n", None, id="never-bound-before"),
        pytest.param("def f(x):\n    return x  # read\n", None, id="a-parameter"),
        pytest.param(
            "def f(a):\n    x = a\n    if a:\n        x = 1\n    return x  # read\n", None, id="bound-in-a-branch"
        ),
        pytest.param(
            "def f(a):\n    x = a\n    for x in a:\n        pass\n    return x  # read\n", None, id="loop-variable"
        ),
        pytest.param(
            "def f(a):\n    x = a\n    while a:\n        g(x)  # read\n        x = h(x)\n", None, id="loop-rebinds"
        ),
        pytest.param("def f(a):\n    x = a\n    x, y = a\n    return x  # read\n", None, id="unpacked"),
        pytest.param("def f(a):\n    x = a\n    return [x for x in a]  # read\n", None, id="comprehension-variable"),
        pytest.param("def f(a):\n    x = a\n    g = lambda: x  # read\n    x = 2\n", None, id="read-when-called"),
    ],
)
def test_straight_line_value(source: str, expected: str | None) -> None:
    assert reached(source) == expected
