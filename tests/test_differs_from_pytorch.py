"""differs-from-pytorch and the signature checks of unknown-mindspore-api apply to the API
everywhere: in scripts, functions and PyNative code, not only in graph code (lint only: the rules/
examples are compiled, and the data file's measurements run in test_docs)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

import mslint.engine
from mslint.diagnostics import Edit
from mslint.engine import check_files
from mslint.mindspore_tables import DATA
from mslint.rules import rule_named
from mslint.settings import Settings

Write = Callable[[str, str], Path]

SCRIPT = """\
import mindspore as ms
from mindspore import nn, ops

DROP_RATE = 0.2
dropout = nn.Dropout(DROP_RATE)
pool = nn.MaxPool2d(kernel_size=3)
print(ops.std(ms.Tensor([1.0, 2.0])))
ones = ops.full((2, 1), 1.0, ms.float32)


def build(rate=0.1, keep=0.9, momentum=0.1):
    rate = rate if rate else 0.0
    return nn.Dropout(rate), nn.Dropout(keep), nn.BatchNorm2d(4, momentum=momentum), nn.LayerNorm(8)


def swap(x):
    return x.transpose(1, 2)
"""


def flagged(path: Path) -> list[tuple[int, str]]:
    report = check_files([path], Settings(select=("differs-from-pytorch", "unknown-mindspore-api")))
    return sorted((d.line, d.symbol) for d in report.diagnostics)


def test_the_checks_apply_outside_graph_code(write: Write) -> None:
    """A module-level script and a plain function are checked; a name rebound to something
    unknown (`rate`) is flagged too (the first parameter is `keep_prob` whatever it holds), pooling
    without stride is not (measured, not flagged);
    `transpose` outside graph code runs in PyNative, which swaps the two dimensions as PyTorch
    does."""
    path = write("port.py", SCRIPT)
    assert flagged(path) == [
        (5, "differs-from-pytorch"),
        (7, "differs-from-pytorch"),
        (8, "unknown-mindspore-api"),
        (13, "differs-from-pytorch"),
        (13, "differs-from-pytorch"),
        (13, "unknown-mindspore-api"),
    ]


def test_the_rule_page_lists_every_measured_entry() -> None:
    table = json.loads((DATA / "pytorch-differences.json").read_text(encoding="utf-8"))
    page = rule_named("differs-from-pytorch").documentation()  # type: ignore[union-attr]
    for entry in [*table["flagged"], *table["not_flagged"]]:
        assert f"| {entry['id']} |" in page and f"`{entry['printed']}`" in page, entry["id"]
    assert all(entry["printed"] and entry["ran"] for entry in table["flagged"])


PATCHES = """\
from mindspore import Tensor, ops

def _zeros(*size, dtype=None):
    return ops.fill(dtype, size, 0)

def _std(self, dim=None, unbiased=True):
    return self

ops.zeros = _zeros
setattr(Tensor, "std", _std)
"""

PATCHED_MODEL = """\
from mindspore import nn, ops

import injection

class Net(nn.Cell):
    def construct(self, x):
        return ops.zeros(1, 2, 3) + x.std() + ops.ones(1, 2, 3)
"""

ONLY_THE_UNPATCHED_CALL = [
    ("model.py", 7, "`mindspore.ops.ones` takes 2 positional arguments in MindSpore 2.10.0, 3 given")
]


def patched_project_findings(write: Write) -> list[tuple[str, int, str]]:
    paths = [write("injection.py", PATCHES), write("model.py", PATCHED_MODEL)]
    report = check_files(paths, Settings(select=("differs-from-pytorch", "unknown-mindspore-api")))
    return [(Path(d.path).name, d.line, d.message) for d in report.diagnostics]


def test_apis_the_project_replaces_follow_the_project(write: Write) -> None:
    """Libraries that give MindSpore PyTorch's signatures patch it (mindnlp's injection.py):
    calls of a patched API are the project's, not the release's."""
    assert patched_project_findings(write) == ONLY_THE_UNPATCHED_CALL


def test_patches_hold_where_the_run_is_analysed_module_by_module(write: Write, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run too large to analyse whole (mindnlp 0.3.1's 752 joined files) is analysed one module
    at a time; the patch module is then not in the project of the module that calls the API."""
    real_graph_functions = mslint.engine.graph_functions

    def graph_functions(project, *args):  # type: ignore[no-untyped-def]
        if sum(m.checked for m in project.modules) > 1:
            raise RecursionError("maximum recursion depth exceeded")
        return real_graph_functions(project, *args)

    monkeypatch.setattr(mslint.engine, "graph_functions", graph_functions)
    assert patched_project_findings(write) == ONLY_THE_UNPATCHED_CALL


def test_the_torch_overload_of_std_and_a_zero_dropout(write: Write) -> None:
    """`dim=`, `keepdim=` or `correction=` select 2.10's `Tensor.std/var(dim, *, correction=1,
    keepdim)`, PyTorch's N - 1 (measured: std-dim-overload), while the axis/ddof spelling still
    divides by N; a Dropout rate of 0 is a keep probability MindSpore refuses (measured:
    dropout-keep-prob), which the message says instead of 'keeps 0 %'."""
    path = write(
        "norms.py",
        """\
        from mindspore import nn

        class Norm(nn.Cell):
            def __init__(self, drop=0.0):
                super().__init__()
                self.drop = nn.Dropout(drop)

            def construct(self, x):
                return x.std(dim=1, keepdim=True) + x.var(1, keepdim=True) + x.std(axis=1, keepdims=True)
        """,
    )
    report = check_files([path], Settings(select=("differs-from-pytorch",)))
    assert [(d.line, d.message.split(" (")[0]) for d in report.diagnostics] == [
        (6, "`nn.Dropout(drop)` raises an error where `drop` is 0, and keeps that share of the elements otherwise"),
        (9, "`x.std` without `ddof` divides by N; PyTorch's divides by N - 1"),
    ]


def test_the_momentum_of_a_frozen_batchnorm_is_not_judged(write: Write) -> None:
    """`use_batch_statistics=False` (by keyword, by position, through a default): the moving
    statistics never change, so PyTorch's momentum means nothing else there."""
    source = """\
from mindspore import nn


def build(frozen=False, learned=None):
    return (
        nn.BatchNorm2d(4, momentum=0.1, use_batch_statistics=False),
        nn.BatchNorm2d(4, 1e-5, 0.1, True, "ones", "zeros", "zeros", "ones", False),
        nn.BatchNorm2d(4, momentum=0.1, use_batch_statistics=frozen),
        nn.BatchNorm2d(4, momentum=0.1, use_batch_statistics=learned),
        nn.BatchNorm2d(4, momentum=0.1, use_batch_statistics=True),
    )
"""
    assert flagged(write("frozen.py", source)) == [(9, "differs-from-pytorch"), (10, "differs-from-pytorch")]


def test_the_rate_each_instance_is_given_decides(write: Write) -> None:
    """The rate that every instance the script builds gives (`cfg.dropout_ratio` of an
    `EasyDict` of literals, as the flowers notebook of the computer-vision corpus builds its
    classifier) decides, not the class as written: keeping 0.5 is zeroing 0.5, so the layer means
    the same in both frameworks. An instance given PyTorch's rate is named in the message
    (rules/differs-from-pytorch/*_instances.py compile these forms)."""
    source = """\
from easydict import EasyDict as edict
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, num_class=5, dropout_ratio=0.5):
        super().__init__()
        self.dropout_ratio = dropout_ratio
        self.dropout = nn.Dropout(self.dropout_ratio)
        self.fc = nn.Dense(8, num_class)

    def construct(self, x):
        return self.fc(self.dropout(x))


cfg = edict({"num_class": 5, "dropout_ratio": RATE})
net = Net(num_class=cfg.num_class, dropout_ratio=cfg.dropout_ratio)
"""
    assert flagged(write("agrees.py", source.replace("RATE", "0.5"))) == []
    report = check_files([write("differs.py", source.replace("RATE", "0.1"))], Settings())
    assert [(d.line, d.message.rsplit(" (", 1)[-1]) for d in report.diagnostics] == [
        (9, "in the instance built at differs.py:17)")
    ]


def test_the_momentum_each_call_of_a_factory_gives_decides(write: Write) -> None:
    """A factory's calls are its instances (maskrcnn's `_BatchNorm2dInit` form): where every call
    gives `use_batch_statistics=False` (a literal, a local constant) the momentum is never used;
    where one gives `True`, that call is named."""
    source = """\
from mindspore import nn


def make_norm(channels, momentum=0.1, use_batch_statistics=True):
    return nn.BatchNorm2d(channels, momentum=momentum, use_batch_statistics=use_batch_statistics)


class Backbone(nn.Cell):
    def __init__(self):
        super().__init__()
        training = False
        self.stem = make_norm(4, use_batch_statistics=training)
        self.norm = make_norm(4, use_batch_statistics=LAST)
"""
    assert flagged(write("frozen.py", source.replace("LAST", "False"))) == []
    report = check_files([write("trained.py", source.replace("LAST", "True"))], Settings())
    assert [(d.line, d.message.rsplit(" (", 1)[-1]) for d in report.diagnostics] == [
        (5, "in the instance built by Backbone.__init__() at trained.py:13)")
    ]


def test_matrix_swaps_by_the_rank_of_the_receiver(write: Write) -> None:
    """`(-1, -2)` is the 2-D swap in both readings: left alone on a 2-D tensor, an error on a
    4-D one (a helper's result, as attention splits its heads), a warning where the rank is not
    known (squeezing an axis of a size not known); by keyword, `transpose` swaps in graph code too
    (measured: transpose-keyword-axes)."""
    path = write(
        "attention.py",
        """\
        from mindspore import nn, ops

        class Attention(nn.Cell):  # mslint: inputs=float32[2,3,8]
            def heads(self, x):
                return x.reshape(2, 3, 2, 4)

            def construct(self, x):
                k = self.heads(x)
                matrix = x.reshape(6, 8)
                return ops.matmul(k, k.transpose(-1, -2)), matrix.transpose(-1, -2), x.transpose(dim0=1, dim1=2)

        class Unknown(nn.Cell):  # mslint: inputs=float32[N,3,8]
            def construct(self, x):
                y = ops.squeeze(x)
                return y.transpose(-1, -2)
        """,
    )
    report = check_files([path], Settings(select=("differs-from-pytorch",)))
    found = [(d.line, str(d.severity), d.message.split(":")[0]) for d in report.diagnostics]
    assert found == [
        (10, "error", "`k.transpose(-1, -2)` in graph code is the whole permutation (-1, -2)"),
        (15, "warning", "`y.transpose(-1, -2)` in graph code is the whole permutation (-1, -2)"),
    ]
    assert "a compile error unless `y` has 2 dimensions" in report.diagnostics[1].message
    assert all(d.fix is not None and d.fix.edits[0].content == "swapaxes" for d in report.diagnostics)


def test_a_pytorch_keyword_name_is_renamed(write: Write) -> None:
    """`ops.softmax(x, dim=-1)`: the fix renames `dim` to the one spelling the signature has;
    where it has none, or the call passes it already, there is no fix."""
    path = write(
        "softmax.py",
        """\
        from mindspore import ops

        def scores(x):
            return ops.softmax(x, dim=-1), ops.softmax(x, axis=-1, dim=1), ops.softmax(x, dims=1)
        """,
    )
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    fixes = [(d.column, d.fix.edits if d.fix else None) for d in report.diagnostics]
    assert fixes == [(27, (Edit(4, 27, 4, 30, "axis"),)), (60, None), (83, None)]
