"""Tests on what an attribute of ``self`` holds (a sub-Cell's attribute, a dict's or a tuple's
item) fold as the compiler folds them (mslint/data/folds-*.json, sources ``attribute``, ``item``,
``index``), only where nothing can change what it holds (:mod:`mslint.model.held_constants`)."""

from __future__ import annotations

from pathlib import Path

from tests.missing_attributes import missing_attributes

NET = """\
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, use_bn=False, act="relu"):
        super().__init__()
        self.use_bn = use_bn
        self.act = act

    def construct(self, x):
        return x


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, act):
        super().__init__()
        self.block = Block()
        self.given = Block(use_bn=True)
        self.changed = Block()
        self.changed.use_bn = True
        self.spread = Block(**{"use_bn": True})
        self.cfg = {"act": "gelu"}
        self.updated = {"act": "gelu"}
        self.updated.update(act="relu")
        self.sizes = (1, 2)
        self.grown = [1]
        self.grown.append(2)
        self.passed = Block(act=act)

    def construct(self, x):
        if self.block.use_bn:
            x = self.missing_default(x)
        if self.given.use_bn:
            x = self.missing_given(x)
        if self.changed.use_bn:
            x = self.missing_changed(x)
        if self.spread.use_bn:
            x = self.missing_spread(x)
        if self.cfg["act"] == "relu":
            x = self.missing_item(x)
        if self.updated["act"] == "relu":
            x = self.missing_updated(x)
        if self.sizes[1] > 1:
            x = self.missing_index(x)
        if len(self.grown) > 1:
            x = self.missing_grown(x)
        if self.passed.act == "relu":
            x = self.missing_passed(x)
        return x
"""


def test_a_held_constant_folds_where_nothing_changes_it(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, NET)
    assert "missing_default" not in found and "missing_item" not in found
    assert found["missing_given"] == "ERROR" and found["missing_index"] == "ERROR"


def test_what_may_change_or_is_not_known_is_not_folded(tmp_path: Path) -> None:
    found = missing_attributes(tmp_path, NET)
    for name in ("missing_changed", "missing_spread", "missing_updated", "missing_grown", "missing_passed"):
        assert found.get(name) == "WARNING", name


PARENT = """\
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, attention=True):
        super().__init__()
        self.attention = attention

    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self, attention=True, other=True):
        super().__init__()
        self.block = Block(attention=attention)
        other = not other
        self.rebound = Block(other)

    def construct(self, x):
        if self.block.attention:
            x = self.missing_passed(x)
        if self.rebound.attention:
            x = self.missing_rebound(x)
        return x


{built}
"""


def test_a_sub_cell_attribute_the_parent_passes_on_folds_as_the_parents_instances_give_it(tmp_path: Path) -> None:
    assert "missing_passed" not in missing_attributes(tmp_path, PARENT.format(built="net = Net(attention=False)"))
    assert missing_attributes(tmp_path, PARENT.format(built="net = Net()"))["missing_passed"] == "ERROR"
    differ = missing_attributes(tmp_path, PARENT.format(built="a = Net(False)\nb = Net(True)"))
    assert differ["missing_passed"] == "WARNING"  # the instances differ, not told apart here
    assert missing_attributes(tmp_path, PARENT.format(built=""))["missing_passed"] == "WARNING"  # none built
    assert differ["missing_rebound"] == "WARNING"  # a parameter the parent rebinds
