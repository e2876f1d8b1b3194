"""What the report tests share: a small project whose entries have every status, and building reports of it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.examples import REPO

PROJECT = REPO / "tests" / "data" / "report_project"
Run = Callable[..., tuple[int, str, str]]


def copy_project(tmp_path: Path) -> Path:
    root = tmp_path / "report_project"
    shutil.copytree(PROJECT, root)
    return root


def report_json(run: Run, *args: str) -> dict[str, Any]:
    code, out, err = run("report", "--format", "json", *args)
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def entry(document: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in document["entries"] if e["name"] == name)
    return found


BUILT_BY_A_HELPER = """\
from mindspore import nn


def conv3x3(cin, cout):
    return nn.Conv2d(cin, cout, 3, padding=1)


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = conv3x3(3, 8)

    def construct(self, x):
        return self.conv(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block(x)


class Plain(nn.Cell):
    def construct(self, x):
        return x
"""
"""Cells built with a helper whose convolution cannot be made (conv-padding-without-pad-mode):
Block calls it from its ``__init__``, Net builds a Block; Plain builds nothing."""
