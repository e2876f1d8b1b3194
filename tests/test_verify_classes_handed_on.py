"""A class handed on as a value (``block_fn=Block`` as a default, ``stack(Plain, 4)``) and called
through the parameter that holds it is built as that call builds it, in the first instance of
the code that calls it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

HANDED_ON = """
import numpy as np
from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.heads = heads

    def construct(self, x):
        return np.exp(self.dense(x))


class Plain(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        return np.tanh(self.dense(x))


class Stage(nn.Cell):
    def __init__(self, dims, block_fn=Block):
        super().__init__()
        self.blocks = nn.SequentialCell([block_fn(dim, heads=2) for dim in dims])

    def construct(self, x):
        return self.blocks(x)


def stack(block, width):
    return nn.SequentialCell([block(width), block(width)])


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stage = Stage([8, 16])
        self.tail = stack(Plain, 4)

    def construct(self, x):
        return x


if __name__ == "__main__":
    net = Net()
"""

BUILT = {
    "Block": (
        {"dim": 8, "heads": 2},
        "Stage([8, 16]) at handed.py:40, through block_fn(dim, heads=2) at handed.py:27 (its first instance)",
        "float32[2,8]",
    ),
    "Plain": (
        {"dim": 4},
        "stack(Plain, 4) at handed.py:41, through block(width) at handed.py:34 (its first instance)",
        "float32[2,4]",
    ),
}


def test_a_class_called_through_the_parameter_it_is_handed_to_is_built_by_that_call(
    tmp_path: Path, write: Write
) -> None:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("handed.py", HANDED_ON)
    project = load_project([tmp_path / "handed.py"], Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    assert {name: (targets[name].kwargs, targets[name].built_at, targets[name].inputs) for name in BUILT} == BUILT


@pytest.mark.mindspore
def test_a_class_handed_on_compiles_as_built_by_the_call_of_its_parameter(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("handed.py", HANDED_ON)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "handed.py")
    findings = {f["line"]: f for f in json.loads(out)["findings"]}
    for line, name, call in ((12, "Block", "Block(dim=8, heads=2)"), (21, "Plain", "Plain(dim=4)")):
        _, where, inputs = BUILT[name]
        assert findings[line]["verdict"] == "confirmed", (findings[line], err)
        assert findings[line]["reason"].startswith(f"compiled {call} as built by {where} on inputs {inputs}")
