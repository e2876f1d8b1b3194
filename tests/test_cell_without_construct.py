"""cell-without-construct: which called Cells are judged, and what is left to other rules."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

CALLER = """

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x)
"""


def found(write: Write, block: str) -> list[tuple[int, str]]:
    path = write("net.py", "from mindspore import nn\nimport thirdparty\n\n" + block + CALLER)
    report = check_files([path], Settings(select=("cell-without-construct", "forward-instead-of-construct")))
    return [(d.line, d.symbol) for d in report.diagnostics]


def test_a_called_cell_without_construct_is_flagged_at_the_call(write: Write) -> None:
    assert found(write, "class Block(nn.Cell):\n    def contruct(self, x):\n        return x\n") == [
        (15, "cell-without-construct")
    ]


def test_a_cell_with_forward_is_left_to_its_own_rule(write: Write) -> None:
    assert found(write, "class Block(nn.Cell):\n    def forward(self, x):\n        return x\n") == [
        (4, "forward-instead-of-construct")
    ]


def test_a_base_that_may_define_construct_is_not_judged(write: Write) -> None:
    assert found(write, "class Block(thirdparty.Layer):\n    pass\n") == []
    assert found(write, "class Block(nn.SequentialCell):\n    pass\n") == []


def test_a_cell_with_its_own_call_is_not_judged(write: Write) -> None:
    assert found(write, "class Block(nn.Cell):\n    def __call__(self, x):\n        return x\n") == []
