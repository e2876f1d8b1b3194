"""A Cell built and handed to a constructor (``PreNorm(dim, Attention(dim))``, a ``SequentialCell``
of layers, what a factory returns) is built for verify the same way, in the compiling process."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

HANDED = """
import numpy as np
from mindspore import nn


class Attention(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.proj = nn.Dense(dim, dim)
        self.heads = heads

    def construct(self, x):
        return self.proj(x)


class PreNorm(nn.Cell):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))
        self.fn = fn

    def construct(self, x):
        return np.exp(self.fn(self.norm(x)))


class Residual(nn.Cell):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def construct(self, x):
        return np.tanh(self.fn(x) + x)


class Tail(nn.Cell):
    def __init__(self, body):
        super().__init__()
        self.body = body

    def construct(self, x):
        return np.sin(self.body(x))


def make_body(width):
    return nn.SequentialCell(nn.Dense(width, width), nn.GELU())


class Net(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.block = PreNorm(dim, Attention(dim, heads=2))
        self.mix = Residual(nn.SequentialCell([nn.Conv2d(dim, dim, 3, group=dim), nn.ReLU()]))
        self.tail = Tail(make_body(dim))

    def construct(self, x):
        return x * 2


if __name__ == "__main__":
    net = Net(16)
"""

BUILT = {
    "PreNorm": (
        "PreNorm(dim=16, fn=Attention(16, heads=2))",
        "Net(16) at cells.py:59, through PreNorm(dim, Attention(dim, heads=2)) at cells.py:50 (its first instance)",
        "float32[2,8,16]",
    ),
    "Residual": (
        "Residual(fn=mindspore.nn.SequentialCell([mindspore.nn.Conv2d(16, 16, 3, group=16), mindspore.nn.ReLU()]))",
        "Net(16) at cells.py:59, through Residual(nn.SequentialCell([nn.Conv2d(dim, dim, 3, group=dim), nn.ReLU()])) at"
        " cells.py:51 (its first instance)",
        "float32[2,16,32,32]",
    ),
    "Tail": (
        "Tail(body=make_body(16))",
        "Net(16) at cells.py:59, through Tail(make_body(dim)) at cells.py:52 (its first instance)",
        "float32[2,16]",
    ),
}
"""Each Cell handed a Cell, as it is built, where, and on the inputs its first layer takes."""


def _shown(name: str, kwargs: dict[str, object]) -> str:
    from mslint.verify.references import shown

    return f"{name}({', '.join(f'{key}={shown(value)}' for key, value in kwargs.items())})"


def test_a_cell_handed_to_a_constructor_is_built_as_the_program_builds_it(tmp_path: Path, write: Write) -> None:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("cells.py", HANDED)
    project = load_project([tmp_path / "cells.py"], Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    built = {name: (_shown(name, targets[name].kwargs), targets[name].built_at, targets[name].inputs) for name in BUILT}
    assert built == BUILT


@pytest.mark.mindspore
def test_a_call_travels_to_the_compiling_process_and_is_made_there() -> None:
    from mslint.verify.literals_json import kwargs_from_json, kwargs_to_json
    from mslint.verify.references import Built, Reference, resolved

    dense = Reference("mindspore.nn", "Dense")
    kwargs = {
        "fn": Built(Reference("mindspore.nn", "SequentialCell"), ([Built(dense, (4, 2), (("has_bias", False),))],))
    }
    received = kwargs_from_json(json.loads(json.dumps(kwargs_to_json(kwargs))))
    assert received == kwargs
    made = resolved(received, lambda path: None)["fn"]
    assert type(made).__name__ == "SequentialCell" and made[0].weight.shape == (2, 4) and not made[0].has_bias


@pytest.mark.mindspore
def test_cells_handed_in_are_built_in_the_compiling_process_and_their_findings_confirmed(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("cells.py", HANDED)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "cells.py")
    findings = {f["line"]: f for f in json.loads(out)["findings"]}
    for line, name in ((22, "PreNorm"), (31, "Residual"), (40, "Tail")):
        call, where, inputs = BUILT[name]
        assert findings[line]["verdict"] == "confirmed", (findings[line], err)
        assert findings[line]["reason"].startswith(f"compiled {call} as built by {where} on inputs {inputs}")
