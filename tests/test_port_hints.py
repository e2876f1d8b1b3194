"""Hints for PyTorch habits name MindSpore's spelling and fix it where the fix keeps the
meaning: `dim` -> `axis`, `keepdim` -> `keep_dims`, `nn.Sequential` -> `nn.SequentialCell`,
`nn.LayerNorm(c)` -> `nn.LayerNorm((c,))` (where `c` is used as a number besides), and one
finding naming `.detach()` and `.cpu()`.
(The fixed examples compile: tests/test_fixes.py runs them through MindSpore.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files
from mslint.rules.third_party_call_in_graph import NUMPY_REPLACEMENTS
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


@pytest.fixture(scope="module")
def compiled_replacements(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What compiling each replacement gave ("compiled", or its error), all in one process: a
    process per replacement imported MindSpore 25 times (about 1.5 s of CPU each)."""
    folder = tmp_path_factory.mktemp("replacements")
    cases = folder / "replacement_cases.py"  # graph mode reads the source of each Cell: a file
    cases.write_text(_replacement_cases())
    done = subprocess.run(
        [sys.executable, str(cases)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=folder,
        env={**os.environ, "MS_DEV_JIT_SYNTAX_LEVEL": "0"},
    )
    if done.returncode != 0 or not done.stdout.strip():
        return dict.fromkeys(NUMPY_REPLACEMENTS, f"the process exited with {done.returncode}: {done.stderr[-2000:]}")
    outcomes: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return outcomes


def _replacement_cases() -> str:
    """A script with a Cell per replacement, named after its numpy function, that compiles each
    and prints what each gave, as JSON."""
    cells = "".join(CASE.format(cell=_cell_name(name), call=call) for name, call in NUMPY_REPLACEMENTS.items())
    cases = ", ".join(f"{name!r}: {_cell_name(name)}" for name in NUMPY_REPLACEMENTS)
    return CASES_HEADER + cells + RUN.format(cases=cases)


def _cell_name(numpy_name: str) -> str:
    return "Replacement_" + numpy_name.replace(".", "_")


@pytest.mark.mindspore
@pytest.mark.measurement
@pytest.mark.xdist_group("numpy-replacements")  # one worker makes the module's batch, once
@pytest.mark.parametrize("numpy_name", sorted(NUMPY_REPLACEMENTS))
def test_every_numpy_replacement_a_hint_proposes_compiles(
    numpy_name: str, compiled_replacements: dict[str, str]
) -> None:
    """Each `mindspore.ops` call that third-party-call-in-graph proposes, with its example
    arguments, compiled and run in STRICT graph mode (every case in one process)."""
    assert compiled_replacements.get(numpy_name) == "compiled", compiled_replacements.get(numpy_name)


CASES_HEADER = """\
import json
import numpy as np
import mindspore as ms
from mindspore import nn, ops
"""

CASE = """

class {cell}(nn.Cell):
    def construct(self, x, y, i):
        return {call}
"""

RUN = """

ms.set_context(mode=ms.GRAPH_MODE)
x = ms.Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]], np.float32))
y = ms.Tensor(np.ones((2, 3), np.float32))
i = ms.Tensor(np.array([0, 1, 1, 3], np.int32))
outcomes = {{}}
for name, cell in {{{cases}}}.items():
    try:
        cell()(x, y, i)
        outcomes[name] = "compiled"
    except Exception as error:  # the next replacement compiles all the same
        outcomes[name] = f"{{type(error).__name__}}: {{error}}"
print(json.dumps(outcomes))
"""


def test_the_hint_of_a_numpy_call_names_only_a_measured_replacement(write: Write) -> None:
    source = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):  # mslint: inputs=int32[4], float32[2,3]
    def construct(self, i, x):
        return np.bincount(i), np.cumsum(x)
"""
    report = check_files([write("net.py", source)], Settings(select=("third-party-call-in-graph",)))
    hints = sorted(d.hint or "" for d in report.diagnostics)
    assert hints == [
        "use `ops.bincount` (as in `ops.bincount(i, minlength=4)`), which compiles in graph mode",
        "use a `mindspore.ops` equivalent, or compute it outside graph code (in `__init__` or the data pipeline)",
    ]
