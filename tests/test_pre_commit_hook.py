"""The pre-commit hook, for real: ``pre-commit try-repo`` on a repository with a bad file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.examples import REPO

BAD = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.maximum(x, 0)
"""


def git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


def try_repo(folder: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(folder.parent / "pre-commit-home")}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "mslint", "--all-files"],
        cwd=folder,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )


def test_hook_fails_on_a_finding_and_passes_once_fixed(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    (project / "net.py").write_text(BAD)
    git(project, "add", "net.py")

    failing = try_repo(project)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "net.py:8:16: MS101 third-party-call-in-graph" in failing.stdout

    (project / "net.py").write_text(BAD.replace("np.maximum(x, 0)", "x.clip(0)"))
    git(project, "add", "net.py")
    passing = try_repo(project)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "Passed" in passing.stdout
