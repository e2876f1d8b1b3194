"""A branch that every graph evaluation of a function prunes holds nothing, where only graph code
names the function (mslint.model.never_compiled)."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

NET = """\
import mindspore as ms
import numpy as np
from mindspore import nn, ops

TRAINING = False


def drop_heads(x, training):
    if not training:
        return x
    return ops.cat((x, x), dim=1)


class Net(nn.Cell):
    def construct(self, x):
        return drop_heads(x, TRAINING)


Net()(ms.Tensor(np.ones((2, 3), np.float32)))
"""


def _lines(tmp_path: Path, source: str) -> list[int]:
    path = tmp_path / "net.py"
    path.write_text(source, encoding="utf-8")
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    return [d.line for d in report.diagnostics]


def test_a_helper_only_graph_code_calls_holds_nothing_after_its_folded_return(tmp_path: Path) -> None:
    assert _lines(tmp_path, NET) == []


def test_a_helper_python_also_calls_keeps_its_finding(tmp_path: Path) -> None:
    assert _lines(tmp_path, NET + "\ndrop_heads(np.ones((2, 3)), True)\n") == [11]


def test_a_helper_graph_code_calls_with_the_branch_taken_keeps_its_finding(tmp_path: Path) -> None:
    assert _lines(tmp_path, NET.replace("TRAINING = False", "TRAINING = True")) == [11]
