"""unsupported-super-call: the arguments graph mode refuses, and what it leaves alone."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

HEAD = """
from mindspore import nn
import thirdparty


class Base(nn.Cell):
    def construct(self, x):
        return x * 2


class Net(Base):
    def __init__(self):
        super().__init__()
        self.other = Base()

    def construct(self, x):
        return {call}
"""


def found(write: Write, call: str) -> list[tuple[int, int]]:
    path = write("net.py", HEAD.format(call=call))
    report = check_files([path], Settings(select=("unsupported-super-call",)))
    return [(d.line, d.column) for d in report.diagnostics]


def test_another_object_as_the_second_argument(write: Write) -> None:
    assert found(write, "super(Net, self.other).construct(x)") == [(16, 27)]


def test_a_class_the_code_does_not_show_is_not_judged(write: Write) -> None:
    assert found(write, "super(thirdparty.Layer, self).construct(x)") == []
    assert found(write, "super(nn.Cell, self).construct(x)") == []


def test_super_in_init_is_not_graph_code_and_a_bases_own_construct_is_found(write: Write) -> None:
    assert found(write, "super(Net, self).construct(x) + super().construct(x)") == []
