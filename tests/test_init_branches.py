"""A line of ``__init__`` in a branch on constructor arguments runs only for the instances whose
arguments take it (mslint.model.init_branches)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

NET = """\
import mindspore as ms
import numpy as np
from mindspore import nn


class MLP(nn.Cell):
    def __init__(self, dim, norm_type="none", depth=2):
        super().__init__()
        self.norm_type = norm_type
        self.dense = nn.Dense(dim, dim)
        if depth == 1:
            self.norm = None
        elif self.norm_type == "ln":
            self.norm = nn.LayerNorm(dim)
        if not (norm_type != "conv"):
            self.conv = nn.Conv2d(dim, dim, 3, padding=1)

    def construct(self, x):
        return self.dense(x)
"""


def _severities(tmp_path: Path, calls: str) -> dict[int, str]:
    path = tmp_path / "net.py"
    path.write_text(NET + calls, encoding="utf-8")
    report = check_files([path], Settings(select=("unknown-mindspore-api", "conv-padding-without-pad-mode")))
    return {d.line: d.severity.name for d in report.diagnostics}


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ("", {14: "WARNING", 16: "WARNING"}),  # no instance: the branches rest on arguments not shown
        # no instance takes them (nor the elif): warnings that say so
        ('\nMLP(8, norm_type="bn")(ms.Tensor(np.ones((2, 8), np.float32)))\n', {14: "WARNING", 16: "WARNING"}),
        ('\nMLP(8, norm_type="ln", depth=1)(ms.Tensor(np.ones((2, 8), np.float32)))\n', {14: "WARNING", 16: "WARNING"}),
        ('\nMLP(8, norm_type="ln")(ms.Tensor(np.ones((2, 8), np.float32)))\n', {14: "ERROR", 16: "WARNING"}),
        (
            '\nMLP(8, norm_type="conv")(ms.Tensor(np.ones((2, 8), np.float32)))\n'
            '\nMLP(8, norm_type="bn")(ms.Tensor(np.ones((2, 8), np.float32)))\n',
            {14: "WARNING", 16: "ERROR"},  # one instance of two takes it
        ),
    ],
)
def test_a_branch_of_init_holds_for_the_instances_that_take_it(
    tmp_path: Path, calls: str, expected: dict[int, str]
) -> None:
    assert _severities(tmp_path, calls) == expected


def test_an_undecided_branch_names_its_test(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET, encoding="utf-8")
    (conv,) = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "conv-padding-without-pad-mode"]
    assert conv.message.endswith(
        "; only for the instances built with `not norm_type != 'conv'`, which the program does not show"
    )


def test_a_branch_no_instance_takes_says_so(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET + '\nMLP(8, norm_type="bn")(ms.Tensor(np.ones((2, 8), np.float32)))\n', encoding="utf-8")
    (conv,) = [d for d in check_files([path], Settings()).diagnostics if d.symbol == "conv-padding-without-pad-mode"]
    assert conv.message.endswith(
        "; only for the instances built with `not norm_type != 'conv'`, none of which the program builds"
    )
