"""unsupported-syntax and Python's `max`/`min` of a 0-d tensor, which LAX compiles (mindocr's label_assignment)."""

from __future__ import annotations

from pathlib import Path

from mslint.engine import check_files
from mslint.settings import Settings

SOURCE = """\
import mindspore as ms
from mindspore import nn, ops


class Sampler(nn.Cell):{spec}
    def construct(self, fg_mask, y):
        fg_num = 256 * 0.5
        fg_num = min(fg_num, fg_mask.astype(ms.float32).sum().astype(ms.int32))
        whole = max(y, 1)
        both = min(y.sum(), y)
        return ops.cumsum(fg_mask.astype(ms.float32), 0) < fg_num, whole, both
"""


def test_max_and_min_of_a_0d_tensor_are_flagged_only_beside_a_python_number(tmp_path: Path) -> None:
    """Measured with 2.10: `min(128.0, mask.sum().astype(ms.int32))` compiles in LAX (STRICT:
    "the inputs should be constant"), and mslint does not know `fg_num` there for a number (bound
    twice); `max(y, 1)` of a 4-d tensor fails at every level; `min(y.sum(), y)` of tensors alone
    too. Where nothing says what `y` holds, `max(y, 1)` of a tensor and a number is still rejected
    by STRICT, whatever its shape: a warning in LAX (the code that runs in PyNative compares
    one-element tensors, which LAX compiles)."""
    path = tmp_path / "sampler.py"
    path.write_text(SOURCE.format(spec="  # mslint: inputs=bool[8], float32[1,2,3,4]"))
    report = check_files([path], Settings())
    assert {d.line for d in report.diagnostics if d.symbol == "unsupported-syntax"} == {9, 10}
    path.write_text(SOURCE.format(spec=""))
    report = check_files([path], Settings())
    assert {(d.line, d.severity.name) for d in report.diagnostics if d.symbol == "unsupported-syntax"} == {
        (9, "WARNING")
    }
