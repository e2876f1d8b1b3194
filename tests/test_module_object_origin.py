"""third-party-call-in-graph on module-level objects: one the module's own class makes, or one of
a MindSpore suite (mindnlp's ``jit_class`` accumulators), is no third-party call."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

PROGRAM = """\
import mindspore as ms
import numpy as np
from mindspore import nn
{imports}

class SkipGram(nn.Cell):
    def construct(self, x):
        return x * 2


model = SkipGram()
helper = {helper}


@ms.jit
def train_step(x):
    return helper(model(x))


train_step(ms.Tensor(np.ones((2, 3), np.float32)))
"""


@pytest.mark.parametrize(
    ("name", "imports", "helper", "expected"),
    [
        # a notebook or script whose file name holds dots is no dotted path of a library
        ("02.Skip-gram-Negative-Sampling.py", "", "SkipGram()", []),
        ("skipgram.py", "from mindnlp.modules import Accumulator", "Accumulator()", []),
        ("skipgram.py", "import operator", "operator.itemgetter(0)", [17]),
    ],
)
def test_calls_of_module_objects(tmp_path: Path, name: str, imports: str, helper: str, expected: list[int]) -> None:
    path = tmp_path / name
    path.write_text(PROGRAM.format(imports=imports, helper=helper), encoding="utf-8")
    report = check_files([path], Settings(select=("third-party-call-in-graph",)))
    assert [d.line for d in report.diagnostics] == expected
