"""branch-shape-mismatch on the placements and look-alikes its rules/ examples leave out."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

HEADER = """
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x, mask=None):
        return {call}

"""


def flagged(write: Callable[[str, str], Path], body: str, call: str = "f(x)") -> list[int]:
    """The lines branch-shape-mismatch reports in a module of ``body`` called from a Cell."""
    path = write("net.py", HEADER.format(call=call) + body)
    report = check_files([path], Settings())
    return [d.line for d in report.diagnostics if d.symbol == "branch-shape-mismatch"]


def line_of(text: str, marker: str) -> int:
    return next(i for i, line in enumerate((HEADER + text).splitlines(), 1) if marker in line) - 1


GROWS = {
    "a tensor while": """
def f(x):
    y = x
    while y.sum() < 100:  # here
        y = ops.concat((y, y))
    return y
""",
    "a tensor while, grown by mint.cat in a nested if": """
from mindspore import mint

def f(x):
    y = x
    while x.sum() < 100:  # here
        if x.max() > 1:
            y = mint.cat([y, x], dim=1)
        x = x * 2
    return x
""",
    "a constant range in a tensor branch": """
def f(x):
    y = x  # here
    if x.sum() > 0:
        y = x
        for i in range(3):
            y = ops.concat((y, x))
    return y
""",
    "a constant range in the else branch of a jit function": """
@ms.jit
def f(x):
    if x.sum() > 0:  # here
        y = x * 2
    else:
        y = x
        for i in (1, 2):
            y = ops.concat((y, x), axis=1)
    return y
""",
}


@pytest.mark.parametrize("body", GROWS.values(), ids=GROWS.keys())
def test_a_tensor_that_grows_in_a_loop_is_flagged(write: Callable[[str, str], Path], body: str) -> None:
    assert flagged(write, body) == [line_of(body, "# here")]


KEEPS = {
    "a counter while": """
def f(x):
    y = x
    i = 0
    while i < 3:
        y = ops.concat((y, x))
        i += 1
    return y
""",
    "a constant range outside any branch": """
def f(x):
    y = x
    for i in range(3):
        y = ops.concat((y, x))
    if x.sum() > 0:
        y = y * 2
    return y
""",
    "an empty range": """
def f(x):
    y = x
    if x.sum() > 0:
        for i in range(0):
            y = ops.concat((y, x))
    return y
""",
    "a loop over Cells": """
def f(x, layers):
    y = x
    if x.sum() > 0:
        for layer in layers:
            y = ops.concat((y, layer(x)))
    return y
""",
    "a stack that changes rank at each iteration": """
def f(x):
    y = x
    if x.sum() > 0:
        for i in range(2):
            y = ops.stack((y, y))
    return y
""",
    "a tensor while that keeps the shape": """
def f(x):
    y = x
    while y.sum() < 100:
        y = ops.concat((y[:1], y[1:]))
    return y
""",
    "a concat of other values": """
def f(x):
    y = x
    if x.sum() > 0:
        y = ops.concat((x[:1], x[1:]))
    return y
""",
}


@pytest.mark.parametrize("body", KEEPS.values(), ids=KEEPS.keys())
def test_a_loop_that_keeps_shapes_is_clean(write: Callable[[str, str], Path], body: str) -> None:
    call = "f(x, self.cells)" if "layers" in body else "f(x)"
    assert flagged(write, body, call) == []


def test_a_window_cut_from_the_grown_value_is_clean(write: Callable[[str, str], Path]) -> None:
    body = """
def f(x):
    y = x
    while x.sum() < 100:
        y = ops.concat((y, x))
        y = y[-2:]
        x = x * 2
    return y
"""
    assert flagged(write, body) == []


NUMBER_OR_TENSOR = {
    "a helper": """
def f(x):
    if x.sum() > 0:  # here
        y = x
    else:
        y = 1.0
    y = x * y
    return y
""",
    "a jit function": """
@ms.jit
def f(x):
    if x.sum() > 0:  # here
        y = x
    else:
        y = 1.0
    return x * y
""",
    "another tensor branch": """
def f(x):
    y = x
    if x.sum() > 0:
        if x.max() > 1:  # here
            y = x
        else:
            y = 1.0
        y = x * y
    return y
""",
    "a loop": """
def f(x):
    y = x
    for _ in range(2):
        if x.sum() > 0:  # here
            y = x
        else:
            y = 1.0
        y = x * y
    return y
""",
}


@pytest.mark.parametrize("body", NUMBER_OR_TENSOR.values(), ids=NUMBER_OR_TENSOR.keys())
def test_a_tensor_or_a_number_is_flagged_wherever_the_if_is(write: Callable[[str, str], Path], body: str) -> None:
    assert flagged(write, body) == [line_of(body, "# here")]


def test_a_number_on_a_constant_condition_or_a_none_default_is_clean(write: Callable[[str, str], Path]) -> None:
    body = """
def f(x, mask):
    if mask is None:
        mask = 1.0
    scale = 2.0
    if ms.get_context("mode") == 0:
        scale = x
    return x * mask * scale
"""
    assert flagged(write, body, "f(x, mask)") == []


ROWS = {
    "an integer index": "y = x[0]",
    "a constant slice": "y = x[slice(0, 1)]",
    "a slice with a start": "y = x[:, 1:3:1]",
    "a row of list()": "rows = list(x)\n        y = rows[0]",
    "a row of tuple()": "y = tuple(x)[0]",
    "a list comprehension": "parts = [row * 2 for row in x]\n        y = parts[0]",
    "a dict comprehension": "d = {i: row for i, row in enumerate(x)}\n        y = d[0]",
}


@pytest.mark.parametrize("statements", ROWS.values(), ids=ROWS.keys())
def test_a_row_or_a_slice_joined_with_its_tensor_is_flagged(write: Callable[[str, str], Path], statements: str) -> None:
    body = f"""
def f(x):
    y = x  # here
    if x.sum() > 0:
        {statements}
    return y
"""
    assert flagged(write, body) == [line_of(body, "# here")]


WHOLE = {
    "a full slice": "y = x[:]",
    "an ellipsis": "y = x[...]",
    "slices from 0 by 1": "y = x[0:, ::1]",
    "a slice of a tuple": "y = (x, x)[0:1]",
    "a row of a list of tensors": "y = [x, x][0]",
    "a slice with a variable bound": "y = x[: x.shape[0]]",
    "a row of another tensor": "rows = list(x * 2)\n        y = rows",
}


@pytest.mark.parametrize("statements", WHOLE.values(), ids=WHOLE.keys())
def test_indexing_that_keeps_the_shape_or_is_unknown_is_clean(
    write: Callable[[str, str], Path], statements: str
) -> None:
    body = f"""
def f(x):
    y = x
    if x.sum() > 0:
        {statements}
    return y
"""
    assert flagged(write, body) == []


CAST_ON_ONE_SIDE = """
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):{inputs}
    def construct(self, x):
        y = x
        if x.sum() > 0:
            y = ops.cast(x, ms.{dtype})
        return y
"""


@pytest.mark.parametrize(
    ("inputs", "dtype", "expected"),
    [
        ("  # mslint: inputs=float32[2,3]", "float16", ["error"]),
        ("  # mslint: inputs=float32[2,3]", "float32", []),
        ("", "float16", ["warning"]),
    ],
    ids=["known-other-dtype", "known-same-dtype", "dtype-not-inferred"],
)
def test_a_cast_on_one_side_only_is_judged_by_the_value_s_own_dtype(
    write: Callable[[str, str], Path], inputs: str, dtype: str, expected: list[str]
) -> None:
    """The join fails unless the uncast value already has the cast's dtype (measured on 2.10:
    float32 cast to float32 compiles; to float16, Type Join Failed); where its dtype is not
    inferred, some input would compile, so the finding is a warning that says so."""
    path = write("net.py", CAST_ON_ONE_SIDE.format(inputs=inputs, dtype=dtype))
    found = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "branch-shape-mismatch"]
    assert [str(d.severity) for d in found] == expected
    assert all("could not infer" in d.message for d in found if str(d.severity) == "warning")


SCALAR_OR_TUPLE = """
import mindspore as ms
from mindspore import Tensor, jit


@jit
def pick(x):
    if x > 1:
        return {first}
    return (1, 2)


def test_pick():
    out = pick({argument})
"""


@pytest.mark.parametrize(
    ("first", "argument", "expected"),
    [
        ("1", "Tensor(2, ms.int32)", True),
        ('"a"', "Tensor(2, ms.int32)", True),
        ("1", "2", False),
        ("(3, 4)", "Tensor(2, ms.int32)", False),
        ("[1, 2]", "Tensor(2, ms.int32)", False),
    ],
    ids=["int-tensor-argument", "str-tensor-argument", "int-literal-argument", "two-tuples", "list-and-tuple"],
)
def test_a_scalar_or_a_tuple_returned_by_a_jit_function_is_judged_by_its_call(
    write: Callable[[str, str], Path], first: str, argument: str, expected: bool
) -> None:
    """A `@jit` function called on a tensor joins its returns: a Python scalar and a tuple fail
    (measured on 2.10, STRICT and LAX: "Cannot join the return values of different branches");
    called on a Python int, the `if` is decided while compiling, and two tuples, or a list and a
    tuple, join (measured)."""
    path = write("net.py", SCALAR_OR_TUPLE.format(first=first, argument=argument))
    found = [d.line for d in check_files([path], Settings()).diagnostics if d.symbol == "branch-shape-mismatch"]
    lines = path.read_text().splitlines()
    assert found == ([lines.index("    if x > 1:") + 1] if expected else [])


LIST_OR_TUPLE = """
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def construct(self, x):
        if x > 1:
            return [1, 2]
        return (1, 2)


out = Net()(Tensor(np.ones([1], np.int32)))
"""


def test_a_list_or_a_tuple_returned_by_a_cell_is_a_warning(write: Callable[[str, str], Path]) -> None:
    """Measured on 2.10: STRICT rejects the join of a Cell's output ("Cannot join the return values
    of different branches"); LAX runs it and returns a value PyNative does not; a `@jit` function
    joins the two (above)."""
    path = write("net.py", LIST_OR_TUPLE)
    found = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "branch-shape-mismatch"]
    assert [(d.line, str(d.severity)) for d in found] == [
        (path.read_text().splitlines().index("        if x > 1:") + 1, "warning")
    ]
