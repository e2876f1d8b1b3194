"""unsupported-graph-output: only the top graph's own returns count, and only what is known to be top."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

NET = """
from mindspore import nn, Tensor
import numpy as np


class Net(nn.Cell):
    def head(self, x):
        return x * 2

    def construct(self, x):
        return self.head, {"x": x}
"""


def found(write: Write, source: str) -> list[tuple[int, int, str]]:
    path = write("net.py", source)
    report = check_files([path], Settings(select=("unsupported-graph-output",)))
    return [(d.line, d.column, str(d.severity)) for d in report.diagnostics]


def test_a_cell_that_python_calls_is_the_top_graph(write: Write) -> None:
    assert found(write, NET + "\nnet = Net()\nnet(Tensor(np.ones(2)))\n") == [(10, 16, "error"), (10, 27, "warning")]


def test_without_a_call_from_python_a_function_is_a_warning_and_a_dict_is_quiet(write: Write) -> None:
    assert found(write, NET) == [(10, 16, "warning")]


def test_a_sub_cells_outputs_go_to_the_graph_that_calls_it(write: Write) -> None:
    source = (
        NET
        + """

class Top(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        head, out = self.net(x)
        return head(out["x"])


Top()(Tensor(np.ones(2)))
"""
    )
    assert found(write, source) == []
