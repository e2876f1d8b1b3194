"""Python's `max`/`min` of a host list copied from a graph tensor (`t.tolist()`): measured on 2.10,
GRAPH mode, LAX fails at the builtin (`Unsupported op [IsDimUnKnown]` on CPU), STRICT at the copy,
which tensor-to-host-in-graph reports. A copy of a constant, and a list of the tensor's items or
sizes, compile."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

SOURCE = """\
import numpy as np
import mindspore as ms
from mindspore import nn


class Captions(nn.Cell):  # mslint: inputs=float32[2,4], int32[2]
    def __init__(self):
        super().__init__()
        self.table = ms.Tensor(np.array([4, 3], np.int32))

    def construct(self, x, caption_lengths):
        lengths = (caption_lengths - 1).asnumpy().tolist()
        out = x
        for _ in range(max(lengths)):
            out = out + 1
        assert x.shape[1] >= max(caption_lengths.asnumpy().tolist())
        shortest = min(list(caption_lengths.asnumpy()))
        known = max(self.table.tolist())
        items = max([caption_lengths[0], caption_lengths[1]])
        sizes = max(list(x.shape))
        return out * shortest * known * items * sizes
"""


def _findings(tmp_path: Path) -> dict[int, str]:
    path = tmp_path / "captions.py"
    path.write_text(SOURCE)
    report = check_files([path], Settings())
    return {d.line: d.message for d in report.diagnostics if d.symbol == "unsupported-syntax"}


def test_max_and_min_of_a_host_copy_are_flagged_once(tmp_path: Path) -> None:
    found = _findings(tmp_path)
    assert sorted(found) == [14, 16, 17]
    assert found[14].startswith(
        "Python's `max` of a host list copied from a graph tensor (`(caption_lengths - 1).asnumpy().tolist()`, "
        "line 12): the graph compiler knows its length and values only at run time"
    )
    assert "range" not in found[14], "range(max(lengths)) is no range of a tensor"
    assert "`min` of a host list copied from a graph tensor (`list(caption_lengths.asnumpy())`" in found[17]
