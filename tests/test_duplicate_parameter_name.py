"""duplicate-parameter-name: which containers are judged, and the names that are known."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

HEAD = """
import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


def weight(*, name="w"):
    return Parameter(Tensor(np.ones(2, np.float32)), name=name)


class Net(nn.Cell):
    def __init__(self, names, count):
        super().__init__()
        {line}
"""


def found(write: Write, line: str) -> list[tuple[int, str]]:
    path = write("net.py", HEAD.format(line=line))
    report = check_files([path], Settings(select=("duplicate-parameter-name",)))
    return [(d.line, str(d.severity)) for d in report.diagnostics]


@pytest.mark.parametrize(
    "line",
    [
        "self.weights = (weight(), weight(name='w'))",
        "self.weights = [weight() for _ in (1, 2)]",
        "self.weights = ParameterTuple(weight() for _ in range(1, 3))",
    ],
)
def test_two_parameters_of_one_known_name(write: Write, line: str) -> None:
    assert found(write, line) == [(12, "error")]


@pytest.mark.parametrize(
    "line",
    [
        "self.weights = ParameterTuple([weight(name=n) for n in names])",
        "self.weights = ParameterTuple([weight(name='w') for _ in range(1)])",
        "self.weights = ParameterTuple([weight(name='a'), weight(name='b')])",
        "self.weights = ParameterTuple([weight(**names), weight(**names)])",
        "self.weights = ParameterTuple([weight()] * 2)",
        "weights = (weight(), weight())",
    ],
)
def test_names_that_differ_or_are_not_known(write: Write, line: str) -> None:
    assert found(write, line) == []


def test_a_loop_of_unknown_length_is_a_warning(write: Write) -> None:
    assert found(write, "self.weights = ParameterTuple([weight() for _ in range(count)])") == [(12, "warning")]


def test_a_dict_attribute_of_two_parameters_of_one_name_read_by_the_graph(write: Write) -> None:
    source = HEAD.format(line="self.weights = {'a': weight(), 'b': weight()}") + (
        "\n    def construct(self, x):\n        return x * self.weights['a']\n"
    )
    path = write("net.py", source)
    report = check_files([path], Settings(select=("duplicate-parameter-name",)))
    assert [(d.line, d.column) for d in report.diagnostics] == [(15, 20)]


TAKEN = """
import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.param = Parameter(Tensor(np.ones(1, np.float32)), name="name_a")

    def construct(self, x):
        return x + self.param


class Outer(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.{method}())
        {more}

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]


{build}
"""


@pytest.mark.parametrize(
    ("method", "more", "build", "expected"),
    [
        ("get_parameters", "", "Outer(Inner(), Inner())", [22]),
        ("trainable_params", "", "Outer(Inner(), Inner())", [22]),
        ("get_parameters", "", "inner = Inner()\nOuter(inner, inner)", []),
        ("get_parameters", "self.net2 = net2", "Outer(Inner(), Inner())", []),
        ("get_parameters", "", "Outer(Inner(), Inner())\nOuter(Inner(), nn.Dense(1, 1))", []),
    ],
    ids=["two-instances", "trainable", "one-instance-twice", "held-too", "a-library-cell-elsewhere"],
)
def test_parameters_taken_from_cells_the_constructor_is_given(
    write: Write, method: str, more: str, build: str, expected: list[int]
) -> None:
    path = write("net.py", TAKEN.format(method=method, more=more, build=build))
    report = check_files([path], Settings(select=("duplicate-parameter-name",)))
    assert [d.line for d in report.diagnostics] == expected
