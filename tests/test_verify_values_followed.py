"""The values a constructor computes before it builds a Cell are followed into that Cell's first
instance: locals bound earlier (in the loop's body too), a parameter bound again, ``self.dim``
after ``self.dim = dim``, the branch a decided test takes (``min(resolution) <= self.window``),
timm's ``to_2tuple`` helper, and an attribute the ``__init__`` of a Cell built earlier leaves
(``self.embed.grid``); a Cell built only under a test that the first iteration of the parent's
loop does not take (``if dim > 16:``) is built as the first iteration that takes it builds it; a
``construct`` that reads the sides of its grid of tokens off what it was given (``H, W =
self.resolution``) is given that many tokens."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

STAGE = """
import collections.abc
from itertools import repeat

import numpy as np
from mindspore import nn


def _ntuple(n):
    def parse(x):
        if isinstance(x, collections.abc.Iterable) and not isinstance(x, str):
            return tuple(x)
        return tuple(repeat(x, n))

    return parse


to_2tuple = _ntuple(2)


class Embed(nn.Cell):
    def __init__(self, img_size=32, patch_size=4, dim=8):
        super().__init__()
        img_size = to_2tuple(img_size)
        patch_size = to_2tuple(patch_size)
        self.grid = [img_size[0] // patch_size[0], img_size[1] // patch_size[1]]
        self.proj = nn.Conv2d(3, dim, patch_size, stride=patch_size)

    def construct(self, x):
        return self.proj(x)


class Bias(nn.Cell):
    def __init__(self, dim, heads):
        super().__init__()
        self.dense = nn.Dense(dim, heads)

    def construct(self, x):
        return np.exp(self.dense(x))


class Block(nn.Cell):
    def __init__(self, dim, resolution, window=7):
        super().__init__()
        self.dim = dim
        self.window = window
        if min(resolution) <= self.window:
            self.window = min(resolution)
        self.bias = Bias(self.dim // 4, self.window)
        self.resolution = resolution
        self.dense = nn.Dense(dim, dim)
        if dim > 16:
            self.head = Head(dim)

    def construct(self, x):
        H, W = self.resolution
        B, L, C = x.shape
        tokens = self.dense(x)
        return np.tanh(tokens.reshape(B, H, W, C))


class Head(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, 2)

    def construct(self, x):
        return np.log(self.dense(x))


class Net(nn.Cell):
    def __init__(self, img_size=16, dim=16, depths=(1, 1)):
        super().__init__()
        self.embed = Embed(img_size, dim=dim)
        grid = self.embed.grid
        self.stages = nn.CellList()
        for i in range(len(depths)):
            width = dim * 2**i
            self.stages.append(Block(width, (grid[0] // 2**i, grid[1] // 2**i)))

    def construct(self, x):
        return self.embed(x)


if __name__ == "__main__":
    net = Net()
"""

BUILT = {
    "Block": ({"dim": 16, "resolution": (4, 4), "window": 7}, "float32[2,16,16]"),
    "Bias": ({"dim": 4, "heads": 4}, "float32[2,4]"),
    "Head": ({"dim": 32}, "float32[2,32]"),
}


def _line(text: str) -> int:
    return next(n for n, line in enumerate(STAGE.lstrip("\n").splitlines(), 1) if text in line)


def test_values_the_constructor_computes_reach_the_first_instance(tmp_path: Path, write: Write) -> None:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("stage.py", STAGE)
    project = load_project([tmp_path / "stage.py"], Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    assert {name: (targets[name].kwargs, targets[name].inputs) for name in BUILT} == BUILT


def test_a_helper_that_is_not_the_ntuple_idiom_is_not_followed(tmp_path: Path, write: Write) -> None:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("stage.py", STAGE.replace("return tuple(repeat(x, n))", "return tuple(repeat(x, n + 1))"))
    project = load_project([tmp_path / "stage.py"], Settings(root=tmp_path)).project
    targets = {t.name: t for t in targets_of(project, Settings(root=tmp_path))}
    assert targets["Block"].unbuildable is not None
    assert "gives resolution what mslint does not follow" in targets["Block"].unbuildable


@pytest.mark.mindspore
def test_cells_sized_by_computed_values_compile_as_the_program_builds_them(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("stage.py", STAGE)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "stage.py")
    findings = {f["line"]: f for f in json.loads(out)["findings"]}
    calls = {"np.exp": "Bias(dim=4, heads=4)", "np.tanh": "Block(dim=16, resolution=(4, 4), window=7)"}
    for call_of, call in {**calls, "np.log": "Head(dim=32)"}.items():
        line = _line(f"return {call_of}(")
        assert findings[line]["verdict"] == "confirmed", (findings[line], err)
        assert findings[line]["reason"].startswith(f"compiled {call} as built by "), findings[line]["reason"]


UNTAKEN = """
from mindspore import nn


class Plain(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)


class Mixing(Plain):
    pass


class Block(nn.Cell):
    def __init__(self, dim, mixing=True):
        super().__init__()
        self.mixing = mixing
        if self.mixing:
            self.attn = Mixing(dim)
        else:
            self.attn = Plain(dim)

    def construct(self, x):
        return self.attn(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block(8)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
"""


def test_the_reason_says_which_test_keeps_every_call_from_running(tmp_path: Path, write: Write) -> None:
    """``Plain(dim)`` is only under ``else:`` of ``if self.mixing:``, which every ``Block`` takes;
    the reason names that test, not a class that is never called."""
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("untaken.py", UNTAKEN)
    project = load_project([tmp_path / "untaken.py"], Settings(root=tmp_path)).project
    reasons = {t.name: t.unbuildable for t in targets_of(project, Settings(root=tmp_path))}
    assert (
        "no constructor arguments for Plain(dim) (no call of the program that builds it runs: each is under a "
        "test its instances do not take (if self.mixing at untaken.py:21)): add"
    ) in str(reasons["Plain"])
