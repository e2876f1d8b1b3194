"""Each call of a Cell judged on the constants it gives (:mod:`mslint.model.call_inputs`): MindSpore
compiles a graph per call's Python values and folds a test on them, so a branch holds for the
calls that take it, named, and one no call takes is compiled for none (measured on 2.10:
rules/unsupported-syntax/*_called_differently.py)."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

ATTENTION = """\
import numpy as np
from mindspore import Tensor, nn, ops


class Attention(nn.Cell):
    def construct(self, y, method="SOFT"):
        if method == "HARD":
            return max(y, ops.ones_like(y))
        if method == "MEAN":
            return y.mean()
        return y * 2


"""


def reached(tmp_path: Path, program: str) -> dict[int, str]:
    """By line: what each unsupported-syntax finding says reaches it."""
    path = tmp_path / "net.py"
    path.write_text(ATTENTION + program, encoding="utf-8")
    return {
        d.line: d.message.split("(reached from ")[1]
        for d in check_files([path], Settings()).diagnostics
        if d.symbol == "unsupported-syntax"
    }


def test_instances_called_with_constants_that_skip_a_branch_do_not_compile_it(tmp_path: Path) -> None:
    program = """\
soft = Attention()
mean = Attention()
x = Tensor(np.ones([2, 2], np.int32))
soft(x, "SOFT")
mean(x, "MEAN")
"""
    assert reached(tmp_path, program) == {}


def test_a_branch_one_instance_takes_names_its_call_and_inputs(tmp_path: Path) -> None:
    program = """\
soft = Attention()
x = Tensor(np.ones([2, 2], np.int32))
soft(x)
hard = Attention()
x = Tensor(np.ones([2, 2], np.int32))
hard(x, "HARD")
"""
    assert reached(tmp_path, program) == {8: "Attention.construct, called at net.py:19 with int32[2,2], 'HARD')"}


def test_sub_cells_of_one_class_are_judged_per_call(tmp_path: Path) -> None:
    program = """\
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.soft = Attention()
        self.other = Attention()

    def construct(self, x):
        return self.soft(x) + self.other(x, "{}")


Net()(Tensor(np.ones([2, 2], np.int32)))
"""
    assert reached(tmp_path, program.format("MEAN")) == {}
    hard = reached(tmp_path, program.format("HARD"))
    assert hard == {
        8: "Net.construct, as built at net.py:24, called with int32[2,2], "
        "Attention called at net.py:21 with int32[2,2], 'HARD')"
    }


def test_instances_a_factory_makes_are_judged_per_call(tmp_path: Path) -> None:
    program = """\
def make_attention():
    return Attention()


soft = make_attention()
soft(Tensor(np.ones([2, 2], np.int32)), "MEAN")
make_attention()(Tensor(np.ones([2, 2], np.int32)), "{}")
"""
    assert reached(tmp_path, program.format("SOFT")) == {}
    assert reached(tmp_path, program.format("HARD")) == {
        8: "Attention.construct, called at net.py:20 with int32[2,2], 'HARD', "
        "as built by make_attention() at net.py:15)"
    }


def test_a_call_whose_constant_is_not_known_may_take_every_branch(tmp_path: Path) -> None:
    program = """\
import sys

soft = Attention()
soft(Tensor(np.ones([2, 2], np.int32)), "SOFT")
chosen = Attention()
chosen(Tensor(np.ones([2, 2], np.int32)), sys.argv[1])
"""
    assert list(reached(tmp_path, program)) == [8]


CLAMP = """\
class Clamp(nn.Cell):
    def construct(self, y):
        return max(y, ops.ones_like(y))


one = Clamp()
x = Tensor(np.ones({}, np.int32))
one(x)
many = Clamp()
x = Tensor(np.ones([2, 2], np.int32))
many(x)
"""


def test_instances_called_on_tensors_made_right_before_are_judged_per_call(tmp_path: Path) -> None:
    """``x`` is rebound between the calls: each call's tensor is the one made right before it."""
    assert reached(tmp_path, CLAMP.format("[1]")) == {16: "Clamp.construct, called at net.py:24 with int32[2,2])"}


def test_a_finding_every_call_holds_names_none_of_them(tmp_path: Path) -> None:
    assert reached(tmp_path, CLAMP.format("[3, 3]")) == {16: "Clamp.construct)"}


def test_a_call_in_a_conditional_expression_reads_its_tensor_from_the_enclosing_block(tmp_path: Path) -> None:
    """A conditional expression's ``body`` is an expression, not a block of statements."""
    program = """\
hard = Attention()
x = Tensor(np.ones([2, 2], np.int32))
y = hard(x, "HARD") if x is not None else None
soft = Attention()
soft(x)
"""
    assert reached(tmp_path, program) == {8: "Attention.construct, called at net.py:16 with int32[2,2], 'HARD')"}


def test_a_call_in_an_inner_block_reads_its_tensor_from_the_blocks_around_it(tmp_path: Path) -> None:
    """The ``__main__`` habit: the tensor made at the top of the block, the call under an ``if``
    (``x`` rebound after it: the call's tensor is the one made before it)."""
    program = """\
if __name__ == "__main__":
    x = Tensor(np.ones([2, 2], np.int32))
    hard = Attention()
    if x is not None:
        hard(x, "HARD")
    x = Tensor(np.ones([3], np.float32))
    soft = Attention()
    soft(x)
"""
    assert reached(tmp_path, program) == {8: "Attention.construct, called at net.py:18 with int32[2,2], 'HARD')"}


def test_a_tensor_made_in_place_of_an_array_made_right_before_is_known(tmp_path: Path) -> None:
    """``a`` is rebound after the call: the array the call's tensor is made of is the one before it."""
    program = """\
a = np.ones((3, 4), np.float32)
hard = Attention()
hard(Tensor(a), "HARD")
a = np.ones((5,), np.int32)
soft = Attention()
soft(Tensor(a))
"""
    assert reached(tmp_path, program) == {8: "Attention.construct, called at net.py:16 with float32[3,4], 'HARD')"}


def test_a_name_rebound_to_another_cell_calls_that_cell(tmp_path: Path) -> None:
    """A notebook's cells each bind ``net`` to their own Cell and call it: each call is that
    Cell's alone (Pair's one-element-per-row input never reaches Smaller's test)."""
    path = tmp_path / "cells.py"
    path.write_text(
        """\
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Pair(nn.Cell):
    def construct(self, z):
        return z + 1


class Smaller(nn.Cell):
    def construct(self, x, y):
        if x < y:
            return x
        return y


net = Pair()
z = Tensor(np.array([0, 1]), ms.int32)
net(z)

net = Smaller()
x = Tensor(np.array(0), ms.int32)
y = Tensor(np.array(1), ms.int32)
net(x, y)
""",
        encoding="utf-8",
    )
    assert [d.symbol for d in check_files([path], Settings()).diagnostics] == []


def test_a_helper_two_cells_call_names_the_entry_the_program_calls(tmp_path: Path) -> None:
    """``Unused`` comes first in the file and is never built; the finding in the helper both
    Cells call is reached from ``Used``, which the program builds and calls."""
    program = """\
def helper(x):
    return range(x)


class Unused(nn.Cell):
    def construct(self, x):
        return helper(x)


class Used(nn.Cell):
    def construct(self, x):
        return helper(x)


net = Used()
net(Tensor(np.ones([2, 3], np.float32)))
"""
    assert reached(tmp_path, program) == {15: "Used.construct, as built at net.py:28, called with float32[2,3])"}
