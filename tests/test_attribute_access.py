"""unsupported-attribute-in-graph: a read of an attribute no class has, judged only where the
classes are known; the Tensor attributes of unknown-mindspore-api only on values known to be tensors."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]


def found(write: Write, source: str, rule: str = "unsupported-attribute-in-graph") -> list[tuple[int, str]]:
    path = write("net.py", source)
    report = check_files([path], Settings(select=(rule,)))
    return [(d.line, str(d.severity)) for d in report.diagnostics]


def test_classes_that_compute_their_attributes_are_not_judged(write: Write) -> None:
    source = """
from mindspore import nn


class Lazy(nn.Cell):
    def __getattr__(self, name):
        return 1.0

    def construct(self, x):
        return x * self.anything


class Configured(nn.Cell):
    def __init__(self, **options):
        super().__init__()
        for key, value in options.items():
            setattr(self, key, value)

    def construct(self, x):
        return x * self.scale


class Foreign(SomeLibraryCell):
    def construct(self, x):
        return x * self.weight


class Missing(nn.Cell):
    def construct(self, x):
        return x * self.weight
"""
    assert found(write, source) == [(29, "error")]


def test_an_attribute_set_from_outside_the_class_is_had(write: Write) -> None:
    source = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return x * self.scale


net = Net()
net.scale = 2.0
"""
    assert found(write, source) == []


def test_another_cell_that_sets_the_name_gives_it_to_that_cell_only(write: Write) -> None:
    """Checked together (the pylint plugin checks a folder so), a Cell that stores `self.scale`
    does not give `scale` to an unrelated Cell; a base or a subclass that stores it does."""
    unrelated = write(
        "a.py",
        "from mindspore import nn\n\n\nclass A(nn.Cell):\n    def construct(self, x):\n        return x * self.scale\n",
    )
    scaled = """
from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def construct(self, x):
        return x * self.scale


class Base(nn.Cell):
    def construct(self, x):
        return x * self.gain


class WithGain(Base):
    def __init__(self):
        super().__init__()
        self.gain = 3.0


class Child(Scaled):
    def construct(self, x):
        self.scale, shift = x.max(), 1
        return x * self.scale + shift
"""
    report = check_files([unrelated, write("b.py", scaled)], Settings(select=("unsupported-attribute-in-graph",)))
    assert [(Path(d.path).name, d.line) for d in report.diagnostics] == [("a.py", 6)]


def test_a_sub_cell_named_as_a_member_of_cell_fails_to_build(write: Write) -> None:
    """As measured (mslint/data/shadowed-*.json): `self.cells = <a Cell>` fails to register the
    child; an int under that name builds, and `pipeline_stage` takes a Cell."""
    source = """
from mindspore import nn


class Block(nn.Cell):
    def construct(self, x):
        return x


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cells = nn.CellList([nn.Dense(2, 2)])
        self.construct_ = Block()
        self.set_train = Block()
        self.to = 3
        self.pipeline_stage = nn.ReLU()

    def construct(self, x):
        return x
"""
    assert found(write, source) == [(12, "error"), (14, "error")]


def test_a_read_under_a_constant_condition_is_a_warning(write: Write) -> None:
    source = """
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, reduce=False):
        super().__init__()
        self.reduce = reduce

    def construct(self, x):
        if self.reduce:
            x = self.reducer(x)
        return x
"""
    assert found(write, source) == [(11, "warning")]


def test_tensor_attributes_are_judged_on_known_tensors_only(write: Write) -> None:
    source = """
from mindspore import nn, ops


class Net(nn.Cell):
    def construct(self, x, options):
        y = ops.relu(x)
        parts = [y, y]
        parts.append(y)
        return y.grad_fn, options.grad_fn, parts


net = Net()
net(ops.ones((2, 2)), {"grad_fn": 1})
"""
    assert found(write, source, "unknown-mindspore-api") == [(9, "error")]


def test_attributes_read_on_a_parameter_are_not_evidence_that_it_is_a_tensor(write: Write) -> None:
    source = """
from mindspore import nn, ops


class Config:
    lr = 1.0


class Net(nn.Cell):
    def construct(self, x, options):
        return x.shape[0] * options.lr * x.grad_fn


Net()(ops.ones((2, 2)), Config())
"""
    assert found(write, source, "unknown-mindspore-api") == [(10, "error")]


def test_a_value_whose_type_a_test_checked_is_not_judged_as_a_tensor(write: Write) -> None:
    source = """
from mindspore import nn, ops
from other_library import DTensor


def local_shard(tensor):
    if not isinstance(tensor, DTensor):
        return 0
    return tensor.layout.get_split_id(0)


class Net(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        y = ops.relu(x)
        local = y.to_local() if isinstance(y, DTensor) else y
        flag = isinstance(y, DTensor) and y.mesh_dim_names
        return local, flag, local_shard(y), y.grad_fn
"""
    assert found(write, source, "unknown-mindspore-api") == [(16, "error")]


def test_subclasses_of_mindspore_cells_have_what_those_set(write: Write) -> None:
    """`nn.LossBase` sets `reduce_mean`; `nn.SequentialCell` sets attributes by computed names,
    and a class mslint has no table for may have anything: neither is judged."""
    source = """
from mindspore import nn
from mindspore.nn.loss.loss import LossBase


class Loss(LossBase):
    def construct(self, x):
        return self.reduce_mean(x) + self.get_loss(x) * self.weight


class Loss2(nn.LossBase):
    def construct(self, x):
        return self.missing


class Stack(nn.SequentialCell):
    def construct(self, x):
        return self.anything


class Future(nn.CellOfANewerRelease):
    def construct(self, x):
        return self.anything
"""
    assert found(write, source) == [(7, "error"), (12, "error")]


def test_a_read_in_init_is_flagged_there_and_not_again_in_construct(write: Write) -> None:
    """Building the Cell fails at the first read; `hasattr` in `__init__` guards it; a name set
    anywhere in the project is had."""
    source = """
from mindspore import nn


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4, has_bias=self.with_bias)
        self.scale = self.factor if hasattr(self, "factor") else 1.0
        self.shift = self.offset
        if self.shift is None:
            raise ValueError(f"no offset for {self.kind}")

    def construct(self, x):
        return self.dense(x) * self.scale * self.with_bias + self.shift + self.gain


def configure(head):
    head.offset = 1.0
"""
    assert found(write, source) == [(7, "error"), (14, "error")]


def test_a_read_in_init_that_may_not_run_is_a_warning(write: Write) -> None:
    """`if not os.path.isfile(cache): self.process()`: building fails only where the file is missing."""
    source = """
import os

from mindspore import nn


class Generator(nn.Cell):
    def __init__(self, cache):
        super().__init__()
        if not os.path.isfile(cache):
            self.process()
        self.table = self.load_table()

    def construct(self, x):
        return x
"""
    assert found(write, source) == [(10, "warning"), (11, "error")]


def test_in_a_graph_mode_program_a_read_never_set_is_an_error_unless_it_rests_on_an_unknown(write: Write) -> None:
    # A sub-Cell's read is an error whatever the mode; the read under a test on a flag no instance
    # shows stays a warning in GRAPH_MODE too: it fails only for some value of the flag.
    source = """
import mindspore as ms
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE)


class Gate(nn.Cell):
    def construct(self, x):
        return x * self.gain


class Net(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.gate = Gate()
        self.flag = flag

    def construct(self, x):
        y = self.gate(x)
        if self.flag:
            y = y * self.extra
        return y
"""
    assert found(write, source) == [(9, "error"), (21, "warning")]


_META_NET = """
from mindspore import nn


class MetaDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x) * self.step_size
"""


def _severities(files: list[Path]) -> list[tuple[str, int, str]]:
    report = check_files(files, Settings(select=("unsupported-attribute-in-graph",)))
    return [(Path(d.path).name, d.line, str(d.severity)) for d in report.diagnostics]


@pytest.mark.parametrize(
    "setter",
    [
        'exec("model.{}.{} = {}".format(name, "step_size", 0.1))',
        "setattr(getattr(model, name), key, 0.1)",
        "for _, cell in model.cells_and_names():\n        setattr(cell, key, 0.1)",
    ],
)
def test_a_setter_the_model_cannot_follow_in_the_program_makes_the_read_a_warning(write: Write, setter: str) -> None:
    # Measured on 2.10: ACL-DGReID's MetaGate, its `w_step_size` set by exec as its trainer does,
    # compiles in GRAPH_MODE and runs in PyNative; built alone, it fails at the read.
    files = [
        write("net.py", _META_NET),
        write("trainer.py", f"from net import MetaDense\n\n\ndef allocate(model, name, key):\n    {setter}\n"),
        write("train.py", "from net import MetaDense\nimport trainer\n\nnet = MetaDense()\n"),
    ]
    assert _severities(files) == [("net.py", 10, "warning")]


def test_a_setter_outside_the_program_or_on_a_configuration_leaves_the_read_an_error(write: Write) -> None:
    files = [
        write("net.py", _META_NET),
        write("train.py", "import sys\nfrom net import MetaDense\n\nfor key in sys.argv:\n    setattr(args, key, 1)\n"),
        write("tools.py", 'def run(code):\n    exec("x.{} = 1".format(code))\n'),
    ]
    assert _severities(files) == [("net.py", 10, "error")]


@pytest.mark.parametrize("mode, severity", [("PYNATIVE_MODE", "warning"), ("GRAPH_MODE", "error")])
def test_a_mode_a_function_of_the_entry_script_selects_decides_the_severity(
    write: Write, mode: str, severity: str
) -> None:
    # ACL-DGReID: `DefaultTrainer.__init__` selects PyNative for mytrain.py; another script
    # imports the model too, so its Cells are not PyNative-only (no finding at all).
    files = [
        write("net.py", _META_NET),
        write("engine.py", f"import mindspore as ms\n\n\ndef setup():\n    ms.set_context(mode=ms.{mode})\n"),
        write("train.py", "import engine\nfrom net import MetaDense\n\nengine.setup()\nMetaDense()\n"),
        write("export.py", "from net import MetaDense\n\nMetaDense()\n"),
    ]
    assert _severities(files) == [("net.py", 10, severity)]
