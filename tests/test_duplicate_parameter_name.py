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
