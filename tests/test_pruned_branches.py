"""Branches the compiler never reads: those a test on constants of ``self`` skips (MindSpore folds
the test while parsing; measured on 2.10, rules/*/good_pruned_branch.py). No rule looks there."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings
from tests.missing_attributes import missing_attributes

NET = """\
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, flag=False):
        super().__init__()
        self.off = False
        self.on = True
        self.flag = flag

    def construct(self, x):
        if self.off:
            import os
            x = self.missing_when_off(x)
        else:
            x = self.missing_in_else(x)
        if self.on:
            x = self.missing_when_on(x)
        if not self.on or self.missing_after_or:
            x = x + 1
        if self.flag:
            x = self.missing_under_unknown(x)
        y = self.missing_in_ifexp(x) if self.off else x
        return y
"""


def test_what_a_known_constant_skips_is_not_read(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, NET)
    assert "missing_when_off" not in found and "missing_in_ifexp" not in found
    assert "missing_after_or" in found  # `not True` decides nothing: the `or` reads its right side


def test_the_branch_a_known_constant_takes_is_read_and_an_unknown_one_may_be_pruned(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, NET)
    assert found["missing_in_else"] == "ERROR"
    assert found["missing_when_on"] == "ERROR"
    assert found["missing_under_unknown"] == "WARNING"  # `flag` comes from the constructor


def test_nothing_in_a_skipped_branch_is_flagged_by_any_rule(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET, encoding="utf-8")
    lines = {d.line for d in check_files([path], Settings()).diagnostics}
    assert not lines & {13, 14, 23}  # the import and the read under `self.off`, the ternary


DIFFERING = """\
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, attention, gate):
        super().__init__()
        self.attention = attention
        self.gate = gate

    def construct(self, x):
        if self.attention and self.gate:
            x = self.missing_in_both(x)
        if self.gate:
            x = self.missing_when_gated(x)
        return x


Block(True, False)(1)
Block(False, True)(2)
"""


def test_a_branch_holds_for_the_instances_that_take_it(tmp_path: Path) -> None:
    """Each instance prunes what its own flags skip: no instance has both flags, and only the
    second (built at line 19) is gated."""
    path = tmp_path / "net.py"
    path.write_text(DIFFERING, encoding="utf-8")
    found = {
        d.message.split("`")[3]: (d.severity.name, d.message.split("(reached from ")[1])
        for d in check_files([path], Settings()).diagnostics
        if d.symbol == "unsupported-attribute-in-graph"
    }
    assert found == {"missing_when_gated": ("ERROR", "Block.construct, as built at net.py:19)")}


TENSOR_TESTS = """\
import numpy as np
from mindspore import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self, bias=True):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((4,), np.float32)), name="w")
        self.t = Tensor(np.ones((4,), np.float32))
        self.b = Parameter(Tensor(np.ones((4,), np.float32)), name="b") if bias else None
        self.n = 2

    def construct(self, x, n, rebound):
        y = x
        if not isinstance(self.w, Tensor):
            y = self.missing_parameter(y)
        if not isinstance(self.t, Tensor):
            y = self.missing_tensor(y)
        if not isinstance(x, Tensor):
            y = self.missing_input(y)
        if isinstance(n, Tensor):
            y = self.missing_number(y)
        if isinstance(self.n, Tensor):
            y = self.missing_attribute_number(y)
        if not isinstance(self.b, Tensor):
            y = self.missing_maybe_none(y)
        rebound = rebound + 1
        if not isinstance(rebound, Tensor):
            y = self.missing_rebound(y)
        return y


net = Net()
net(Tensor(np.ones((2, 4), np.float32)), 2, Tensor(np.ones((2, 4), np.float32)))
"""


def test_isinstance_of_tensor_folds_where_the_value_is_a_tensor_or_a_number(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, TENSOR_TESTS)
    for name in ("missing_parameter", "missing_tensor", "missing_input", "missing_number", "missing_attribute_number"):
        assert name not in found, name
    assert found["missing_maybe_none"] == "WARNING"  # an instance may set None
    assert found["missing_rebound"] == "WARNING"  # rebound before the test: not the input's value


CELL_COUNTS = """\
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.branches = nn.CellList([nn.ReLU(), nn.ReLU()])
        self.seq = nn.SequentialCell([nn.ReLU()])
        self.grown = nn.CellList([nn.ReLU()])
        self.grown.append(nn.ReLU())
        layers = [nn.ReLU()]
        layers.append(nn.ReLU())
        self.named = nn.SequentialCell(layers)

    def construct(self, x):
        if len(self.branches) < 2:
            x = self.missing_cells(x)
        if len(self.seq) > 1:
            x = self.missing_seq(x)
        if len(self.grown) < 2:
            x = self.missing_grown(x)
        if len(self.named) != 2:
            x = self.missing_named(x)
        if len(self.branches) == 2:
            x = self.missing_live(x)
        return x


if __name__ == "__main__":
    Net()(Tensor(np.ones((2, 4), np.float32)))
"""


def test_len_of_a_cell_container_folds_on_the_items_init_writes_out(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, CELL_COUNTS)
    for name in ("missing_cells", "missing_seq", "missing_named"):
        assert name not in found, name
    assert found["missing_grown"] == "WARNING"  # appended to outside the literal: not counted
    assert found["missing_live"] == "ERROR"


TRAINING = """\
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        x = self.missing_in_training(x) if self.training else x
        if not self.training:
            return self.missing_in_eval(x)
        return self.missing_after_eval(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
"""


def test_self_training_is_false_where_the_program_never_switches_a_cell_to_training(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, TRAINING)
    assert found["missing_in_eval"] == "ERROR"  # the branch `False` takes: compiled for the instance run


def test_what_self_training_skips_stays_a_warning(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, TRAINING)
    # a Cell is meant to be trained, maybe by a program outside the checked code: latent
    assert found["missing_in_training"] == "WARNING"
    assert found["missing_after_eval"] == "WARNING"


def test_self_training_is_not_known_where_the_program_may_train(tmp_path: Path) -> None:
    for switch in ("net.set_train()", "Model(net)", "nn.WithGradCell(net)", "trainer.train(net)"):
        found = missing_attributes(tmp_path, TRAINING.replace("    net = Net()\n", f"    net = Net()\n    {switch}\n"))
        assert found["missing_in_training"] == "WARNING", switch
        assert found["missing_in_eval"] == "WARNING", switch


def test_self_training_is_not_known_where_an_instance_is_not(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, TRAINING.split("\n\nif __name__")[0] + "\n")
    assert found["missing_in_training"] == "WARNING"


RANK_CALLS = """\
import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dim = 3

    def construct(self, x):
        if x.dim() == 3:
            x = self.missing_batched(x)
        if x.ndimension() == 2:
            x = self.missing_live(x)
        if self.dim() == 2:
            x = self.missing_under_own_method(x)
        return x


if __name__ == "__main__":
    Net()(Tensor(np.ones((2, 4), np.float32)))
"""


def test_a_test_on_x_dim_folds_on_the_rank_of_the_input(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, RANK_CALLS)
    assert "missing_batched" not in found
    assert found["missing_live"] == "ERROR"
    assert "missing_under_own_method" in found  # `self.dim()` is no tensor's rank
