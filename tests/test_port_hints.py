"""Hints for PyTorch habits name MindSpore's spelling and fix it where the fix keeps the
meaning: `dim` -> `axis`, `keepdim` -> `keep_dims`, `nn.Sequential` -> `nn.SequentialCell`,
`nn.LayerNorm(c)` -> `nn.LayerNorm((c,))` (where `c` is used as a number besides), and one
finding naming `.detach()` and `.cpu()`.
(The fixed examples compile: tests/test_fixes.py runs them through MindSpore.)"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

SOURCE = """\
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self, c, hidden=64, shape=(4,)):
        super().__init__()
        self.body = nn.Sequential(nn.Dense(4, 4))
        self.heads = nn.ModuleList([nn.Dense(4, 2)])
        self.norms = (nn.LayerNorm(c), nn.LayerNorm(hidden), nn.LayerNorm(shape), nn.LayerNorm(8), nn.Dense(c, 4))

    def construct(self, x):
        y = ops.softmax(x, dim=-1) + ops.mean(x, 1, keepdim=True) + ops.softmax(x, dim=1, axis=1)
        return x.detach().cpu() + y


PORTED_BASE = nn.Module
"""


def diagnostics(write: Write) -> list[tuple[int, str, str, str, str]]:
    path = write("net.py", SOURCE)
    report = check_files([path], Settings(select=("unknown-mindspore-api", "torch-api-in-cell")))
    return sorted(
        (d.line, str(d.severity), d.hint or "", d.fix.message if d.fix else "", d.fix.applicability if d.fix else "")
        for d in report.diagnostics
    )


def test_hints_and_fixes_for_pytorch_habits(write: Write) -> None:
    found = diagnostics(write)
    assert (
        7,
        "error",
        "PyTorch's `Sequential` is `SequentialCell` in MindSpore",
        "Use `SequentialCell`",
        "safe",
    ) in found
    assert (8, "error", "PyTorch's `ModuleList` is `CellList` in MindSpore", "Use `CellList`", "safe") in found
    module = "PyTorch's `Module` is `Cell` in MindSpore (not a drop-in replacement: a Cell defines `construct`)"
    assert (16, "error", module, "", "") in found
    layer_norms = [f for f in found if f[0] == 9]
    assert layer_norms == [
        (9, "error", "a one-element tuple: `(8,)`", "Make it a tuple", "safe"),
        (9, "warning", "a one-element tuple: `(c,)`", "Make it a tuple", "unsafe"),
        (9, "warning", "a one-element tuple: `(hidden,)`", "Make it a tuple", "unsafe"),
    ]
    keywords = [f for f in found if f[0] == 12]
    assert (
        12,
        "error",
        "PyTorch's `dim` is `axis` in MindSpore: `axis=-1`",
        "Rename `dim` to `axis`",
        "safe",
    ) in keywords
    assert (
        12,
        "error",
        "PyTorch's `keepdim` is `keep_dims` in MindSpore: `keep_dims=True`",
        "Rename `keepdim` to `keep_dims`",
        "safe",
    ) in keywords
    # `axis` is given already: renaming `dim` would pass it twice
    assert (12, "error", "its parameters are: input, axis, dtype", "", "") in keywords
    detach = [f for f in found if f[0] == 13]
    assert detach == [
        (
            13,
            "warning",  # no instance of Net is known: the receiver may be no tensor
            "`.detach()`: use `ops.stop_gradient(x)`; `.cpu()`: drop it: the device is chosen with "
            "`mindspore.set_device`",
            "",
            "",
        )
    ]
