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
