"""Numbers of an input's static shape are graph constants: a test on them is folded where the
instance's call shows the shape (measured on 2.10: mslint/data/folds-*.json, source ``shape``;
rules/unknown-mindspore-api/*_shape_folds.py), read where the test is, and left undecided where
the shape is not known."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings
from tests.missing_attributes import missing_attributes

NET = """\
import numpy as np
from mindspore import Tensor, nn, ops


class Pad(nn.Cell):
    def __init__(self, landmarks):
        super().__init__()
        self.norm = nn.LayerNorm((8,))
        self.landmarks = landmarks

    def construct(self, x):
        x = self.norm(x)
        b, n, _, m = *x.shape, self.landmarks
        remainder = n % m
        if remainder > 0:
            x = self.missing_when_padded(x)
            x = ops.pad(x, (0, 0, 0, m - remainder), constant_values=0.0)
        if x.shape[1] // 2 > 600:
            x = self.missing_when_long(x)
        if x.ndim == 3:
            x = x + 1
        else:
            x = self.missing_beyond_rank_3(x)
        return x
"""


def _checked(tmp_path: Path, call: str) -> dict[str, str]:
    return missing_attributes(tmp_path, NET + call)


@pytest.mark.parametrize("rows", [1024, 1023])
def test_a_test_on_the_shape_an_instance_is_called_with_is_folded(tmp_path: Path, rows: int) -> None:
    """The shape is read where the test is: after the LayerNorm that keeps it, before the pad that
    rebinds ``x`` in the branch; the rank after that branch is read through it where it is
    folded."""
    call = f"\n\nif __name__ == '__main__':\n    Pad(256)(Tensor(np.ones((1, {rows}, 8), np.float32)))\n"
    found = _checked(tmp_path, call)
    if rows == 1024:
        assert found == {}
    else:  # the pad is compiled, and the shape it gives is not followed: what tests it is undecided
        assert found == {
            "missing_when_padded": "ERROR",
            "missing_when_long": "WARNING",
            "missing_beyond_rank_3": "WARNING",
        }


def test_a_keyword_in_the_branch_no_graph_compiles_is_not_reported(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(NET + "\n\nPad(256)(Tensor(np.ones((1, 1024, 8), np.float32)))\n", encoding="utf-8")
    assert not [d for d in check_files([path], Settings()).diagnostics if d.symbol == "unknown-mindspore-api"]
    path.write_text(NET + "\n\nPad(256)(Tensor(np.ones((1, 1000, 8), np.float32)))\n", encoding="utf-8")
    assert [d.line for d in check_files([path], Settings()).diagnostics if d.symbol == "unknown-mindspore-api"] == [17]


def test_a_shape_the_program_does_not_show_leaves_the_test_undecided(tmp_path: Path) -> None:
    """What is found in a branch it decides holds for the shapes that take it: a warning that says so."""
    found = _checked(tmp_path, "")
    assert found == {
        "missing_when_padded": "WARNING",
        "missing_when_long": "WARNING",
        "missing_beyond_rank_3": "WARNING",
    }
    keywords = [
        d for d in check_files([tmp_path / "net.py"], Settings()).diagnostics if d.symbol == "unknown-mindspore-api"
    ]
    assert [(d.line, d.severity.name) for d in keywords] == [(17, "WARNING")]
    assert keywords[0].message.endswith("; only where `remainder > 0` lets the compiler reach it")


RANK = """\
import mindspore as ms
import numpy as np
from mindspore import Tensor, nn


class Rank(nn.Cell):
    def construct(self, x):
        if x.ndim == 3:
            x = x + 1
        else:
            x = self.missing_beyond_rank_3(x)
        return x


if __name__ == "__main__":
    net = Rank()
"""


@pytest.mark.parametrize("dynamic", [False, True])
def test_an_input_compiled_with_a_dynamic_shape_leaves_the_tests_on_shapes_undecided(
    tmp_path: Path, dynamic: bool
) -> None:
    """``set_inputs`` given ``None``: which numbers of the shape stay constants is not measured, the
    rank included."""
    given = "    net.set_inputs(Tensor(shape=[1, None, 8], dtype=ms.float32))\n" if dynamic else ""
    found = missing_attributes(tmp_path, RANK + given + "    net(Tensor(np.ones((1, 1024, 8), np.float32)))\n")
    assert found == ({"missing_beyond_rank_3": "WARNING"} if dynamic else {})
