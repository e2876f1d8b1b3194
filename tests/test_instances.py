"""What the program's instances give a constructor (``mslint.model.instances``): a flag kept on
``self`` is the constant the instances give it, so the compiler prunes what it skips; where the
instances are not all known, nothing is assumed (measured on 2.10: rules/unsupported-attribute-
in-graph/good_pruned_by_instances.py compiles, bad_instances.py fails)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

BLOCK = """\
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super(Block, self).__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)

"""


def severity(tmp_path: Path, program: str, others: dict[str, str] | None = None) -> str | None:
    """The severity of the finding on ``self.attn``, where ``program`` follows the class."""
    path = tmp_path / "net.py"
    path.write_text(BLOCK + program, encoding="utf-8")
    for name, text in (others or {}).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = [d for d in check_files(sorted(tmp_path.glob("*.py")), Settings()).diagnostics if "`attn`" in d.message]
    return found[0].severity.name if found else None


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("net = Block(8, attention=False)\n", None),  # the one instance prunes the branch
        ("net = Block(8, False)\n", None),  # given by position
        ("a = Block(8, attention=False)\nb = Block(16, attention=False)\n", None),  # every instance agrees
        ("FLAG = False\nnet = Block(8, attention=FLAG)\n", None),  # a module constant
        ("net = Block(8, attention=True)\n", "ERROR"),  # the one instance reads it
        ("net = Block(8)\n", "ERROR"),  # the default
        ("a = Block(8, attention=False)\nb = Block(8)\n", "WARNING"),  # instances differ
        ("", "WARNING"),  # no instance: the class as before
        ("import sys\nnet = Block(8, attention=len(sys.argv) > 1)\n", "WARNING"),  # not a constant here
        ("kw = {'attention': False}\nnet = Block(8, **kw)\n", "WARNING"),  # a spread gives anything
        ("net = Block(8, attention=False)\nREGISTRY = {'block': Block}\n", "WARNING"),  # built elsewhere too
        ("net = Block(8, attention=False)\n\nclass Big(Block):\n    pass\n", "WARNING"),  # a subclass's
        ("net = Block(8, attention=False)\nassert isinstance(net, Block)\n", None),  # a type test builds none
        ("net = Block(8, attention=False)\nBlock = register(Block)\n", "WARNING"),  # handed to a registry
    ],
)
def test_a_flag_the_instances_give_decides_the_branch(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


def test_the_instances_of_every_module_count(tmp_path: Path) -> None:
    others = {"train.py": "from net import Block\n\nnet = Block(8)\n"}
    assert severity(tmp_path, "net = Block(8, attention=False)\n", others) == "WARNING"
    others = {"train.py": "import net as models\n\nnet = models.Block(8, attention=False)\n"}
    assert severity(tmp_path, "", others) is None


GATED = """\
from mindspore import nn, ops


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)

    def construct(self, x, gate=None):
        if gate is not None:
            x = x * self.gate_proj(gate)
        return self.proj(x)


class Encoder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return {calls}
"""


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ("self.block(x, None)", None),  # every call gives None: the compiler folds the test
        ("self.block(x, gate=None)", None),
        ("self.block(x, x)", "ERROR"),  # a tensor: the branch is compiled
        ("self.block(x, None) + self.block(x, x)", "ERROR"),  # one call compiles it
        ("self.block(x, 3)", "ERROR"),  # a number is not None either
    ],
)
def test_a_none_argument_decides_an_is_none_test(tmp_path: Path, calls: str, expected: str | None) -> None:
    path = tmp_path / "net.py"
    path.write_text(GATED.format(calls=calls) + "\n\nEncoder()(ops.ones((2, 4)))\n", encoding="utf-8")
    found = [d for d in check_files([path], Settings()).diagnostics if "`gate_proj`" in d.message]
    assert (found[0].severity.name if found else None) == expected


NET = """\
class Net(nn.Cell):
    def __init__(self, attention=True):
        super().__init__()
        self.block = Block(8, attention=attention)

"""


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (NET + "net = Net(attention=False)\n", None),  # Block's instance gets what Net's gives
        (NET + "net = Net()\n", "ERROR"),  # Net's default
        (NET + "a = Net(attention=False)\nb = Net()\n", "WARNING"),  # Net's instances differ
        (NET, "WARNING"),  # no instance of Net
        (NET + "net = Net(attention=False)\nREGISTRY = {'net': Net}\n", "WARNING"),  # Net built elsewhere too
        (
            NET.replace("        self.block", "        attention = not attention\n        self.block")
            + "net = Net(attention=False)\n",
            "WARNING",  # rebound: no longer what the instances give
        ),
        (
            NET + "class Model(nn.Cell):\n    def __init__(self, flag):\n        super().__init__()\n"
            "        self.net = Net(flag)\n\n\nmodel = Model(False)\n",
            None,  # followed up the parents
        ),
        (
            NET.replace("attention=True)", "attention=True, depth=0)")
            + "        if depth:\n            self.inner = Net(attention, depth - 1)\n\n\n"
            "net = Net(attention=False, depth=1)\n",
            "WARNING",  # a cycle of parents is not followed
        ),
    ],
)
def test_a_parent_passes_on_what_its_instances_give(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


MAKE = "def make(attention=False):\n    return Block(8, attention)\n\n\n"
SMALL = "def small(**kwargs):\n    return Block(8, **kwargs)\n\n\n"


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        (MAKE + "net = make()\n", None),  # the factory's default
        (MAKE + "net = make(attention=True)\n", "ERROR"),
        (MAKE, "WARNING"),  # a factory nothing calls
        (SMALL + "net = small(attention=False)\n", None),  # its callers' keywords, passed on
        (SMALL + "net = small()\n", "ERROR"),  # Block's default
        (SMALL + "a = small(attention=False)\nb = small()\n", "WARNING"),  # one caller omits it
        (SMALL + "cfg = {'attention': False}\nnet = small(**cfg)\n", "WARNING"),  # a caller spreads a dict
        (SMALL + "net = small(attention=False)\nFACTORIES = {'small': small}\n", "WARNING"),  # handed on
        ("@register\n" + SMALL + "net = small(attention=False)\n", "WARNING"),  # registered
        (
            SMALL.replace("    return", "    kwargs.pop('attention', None)\n    return")
            + "net = small(attention=False)\n",
            "WARNING",  # what it spreads is not what it was given
        ),
        (SMALL + "def tiny(**kwargs):\n    return small(**kwargs)\n\n\nnet = tiny(attention=False)\n", None),
        ("def make(*args):\n    return Block(8, *args)\n\n\nnet = make(False)\n", None),  # `*args` passed on
        ("def make(*args):\n    return Block(8, *args)\n\n\na = make(False)\nb = make()\n", "WARNING"),
    ],
)
def test_a_factory_builds_what_its_callers_ask_for(tmp_path: Path, program: str, expected: str | None) -> None:
    assert severity(tmp_path, program) == expected


def test_a_factory_of_another_module_is_followed(tmp_path: Path) -> None:
    others = {"train.py": "from net import small\n\nnet = small(attention=False)\n"}
    assert severity(tmp_path, SMALL, others) is None
    others = {"train.py": "from net import small\n\nnet = small(attention=True)\n"}
    assert severity(tmp_path, SMALL, others) == "ERROR"


def test_a_chain_of_parents_too_long_to_follow_says_nothing(tmp_path: Path) -> None:
    links = [
        f"class Link{i}(nn.Cell):\n    def __init__(self, attention):\n        super().__init__()\n"
        f"        self.inner = {f'Link{i + 1}(attention)' if i < 99 else 'Block(8, attention=attention)'}\n\n\n"
        for i in range(100)
    ]
    assert severity(tmp_path, "".join(links) + "net = Link0(False)\n") == "WARNING"
    assert severity(tmp_path, "".join(links[90:]).replace("Link90", "Link") + "net = Link(False)\n") is None
