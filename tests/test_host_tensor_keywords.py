"""unknown-mindspore-api judges keywords of Tensor methods wherever the value is known to be a
Tensor: in an evaluation script as in graph code."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from mslint.engine import check_files
from mslint.settings import Settings

Write = Callable[[str, str], Path]

SCRIPT = """\
import numpy as np
import mindspore as ms
from mindspore import Tensor


def clip_boxes(boxes, width, net):
    first = Tensor(boxes)[:, 0].clip(xmin=0, xmax=width)
    t = Tensor(boxes)
    t = t[:, :2]
    second = t.clip(xmin=0)
    third = ms.Tensor.from_numpy(boxes).clip(xmin=0)
    a = Tensor(boxes)
    a = a.asnumpy()
    fourth = a.clip(xmin=0)
    b = net(boxes)
    b = b[0]
    fifth = b.clip(xmin=0)
    return first, second, third, fourth, fifth


if __name__ == "__main__":
    clip_boxes(np.ones((2, 4), np.float32), 1.0, None)
"""


def test_tensor_keywords_in_an_evaluation_script(write: Write) -> None:
    """A tensor rebound to an item of itself stays a tensor; one rebound to a numpy copy, or a
    value nothing shows to be a tensor, is not judged."""
    path = write("eval.py", SCRIPT)
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    assert sorted((d.line, d.message.split("`")[3]) for d in report.diagnostics) == [
        (7, "xmax"),
        (7, "xmin"),
        (10, "xmin"),
        (11, "xmin"),
    ]
