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


ROTARY = """\
from mindspore import nn


class Rotary(nn.Cell):
    def rotate(self, t):
        return self.forward(t)

    def forward(self, t):
        return t
"""
ATTENTION = """\
from mindspore import nn
from rotary import Rotary


class Attention(nn.Cell):
    def __init__(self):
        super().__init__()
        self.rotary_emb = Rotary()

    def construct(self, x):
        return self.rotary_emb.rotate(x)
"""
OTHER = """\
class Other:
    def rotate(self, t):
        return t
"""


def test_a_forward_that_the_cells_own_methods_serve_is_not_judged(write: Write) -> None:
    """video-diffusion's ``RotaryEmbedding``: graph code calls ``rotate_queries_or_keys``, which calls
    ``self.forward``; the Cell is never called as a whole. A method of that name on another class
    of the program may be what the call reaches."""
    paths = [write("rotary.py", ROTARY), write("attention.py", ATTENTION)]
    select = Settings(select=("forward-instead-of-construct",))
    assert [d.line for d in check_files(paths, select).diagnostics] == []
    assert [d.line for d in check_files(paths[:1], select).diagnostics] == [4]  # nothing calls `rotate`
    paths.append(write("other.py", OTHER))
    assert [d.line for d in check_files(paths, select).diagnostics] == []  # another program's class
    paths[1] = write("attention.py", "import other\n" + ATTENTION)
    assert [d.line for d in check_files(paths, select).diagnostics] == [4]
