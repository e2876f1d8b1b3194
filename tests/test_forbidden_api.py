"""forbidden-api-in-graph: refused Cell methods on any Cell the code shows, quiet elsewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

HEAD = """
import mindspore as ms
from mindspore import nn


class Scale(nn.Cell):
    def construct(self, x):
        return x * 2


SHARED = Scale()
"""


def found(write: Write, body: str) -> list[tuple[int, str]]:
    path = write("net.py", HEAD + body)
    report = check_files([path], Settings(select=("forbidden-api-in-graph",)))
    return [(d.line - HEAD.count("\n") + 1, str(d.severity)) for d in report.diagnostics]


def test_cells_built_in_the_function_and_at_module_level(write: Write) -> None:
    body = """
class Net(nn.Cell):
    def construct(self, x):
        local = Scale()
        n = len(local.get_parameters()) + len(SHARED.trainable_params())
        return x * n
"""
    assert found(write, body) == [(5, "error"), (5, "error")]


def test_what_is_not_shown_to_be_a_cell_is_quiet_and_a_list_item_is_a_cell(write: Write) -> None:
    body = """
class Registry:
    def state_dict(self):
        return {}


def helper(cell, table):
    return len(cell.trainable_params()) + len(table.state_dict())


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = {"a": 1}
        self.seq = [Scale()]
        self.registry = Registry()

    def construct(self, x):
        for k, v in self.table.items():
            x = x + v
        n = len(self.registry.state_dict()) + len(self.seq[0].get_parameters())
        return x * helper(x, self.table) * n
"""
    assert found(write, body) == [(21, "error")]  # an item of a list of Cells is a Cell


def test_a_method_setting_an_attribute_is_a_warning_and_an_override_is_quiet(write: Write) -> None:
    body = """
class Own(nn.Cell):
    def set_train(self, mode=True):
        return mode

    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.own = Own()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        self.own.set_train(False)
        self.dense.set_train(False)
        return self.dense(x)
"""
    assert found(write, body) == [(18, "warning")]


def test_a_deprecated_function_that_logs_is_refused_under_each_of_its_names(write: Write) -> None:
    body = """
from mindspore.ops.function.nn_func import soft_shrink
from mindspore.ops import functional as F


class Net(nn.Cell):
    def construct(self, x):
        return soft_shrink(x) + F.soft_shrink(x) + ops_softshrink(x)


def ops_softshrink(x):
    return x
"""
    assert found(write, body) == [(8, "error"), (8, "error")]
