"""A verdict built on a constructor default the program never chose says which defaults it kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

KEPT = """
import sys

import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, dim, depth=2, act=nn.ReLU, norm=nn.LayerNorm, scale=sys.maxsize):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.depth = depth
        self.act = act()

    def construct(self, x):
        return np.exp(self.act(self.dense(x)))


if __name__ == "__main__":
    net = Net(8, depth=len(sys.argv), act=nn.ReLU)
"""
"""``depth`` is given a value mslint does not follow: it keeps its default, and says so; ``act``
is given its own default, ``norm`` and ``scale`` are not given (``scale``'s default is no literal)."""


def test_the_defaults_kept_in_place_of_what_the_program_gives_are_named(tmp_path: Path, write: Write) -> None:
    from mslint.engine import load_project
    from mslint.settings import Settings
    from mslint.verify.targets import targets_of

    write("kept.py", KEPT)
    project = load_project([tmp_path / "kept.py"], Settings(root=tmp_path)).project
    [target] = targets_of(project, Settings(root=tmp_path))
    assert (target.kwargs, target.kept) == ({"dim": 8}, ("depth=2",))


@pytest.mark.mindspore
def test_the_verdict_names_the_defaults_it_kept(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("kept.py", KEPT)
    monkeypatch.chdir(tmp_path)
    _, out, err = run("verify", "--no-compare", "--no-cache", "--format", "json", "kept.py")
    [finding] = json.loads(out)["findings"]
    kept = "built with the default depth=2 in place of what the program gives, which mslint does not follow"
    assert finding["verdict"] == "confirmed" and finding["reason"].endswith(kept), (finding, err)
    _, text, _ = run("verify", "--no-compare", "--no-cache", "kept.py")
    assert kept in " ".join(text.split()), text
