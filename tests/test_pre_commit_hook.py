"""The pre-commit hook, for real: the configuration docs/pre-commit.md gives, run on a repository with a bad file."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.examples import REPO
from tests.test_notebooks import notebook

DOC = REPO / "docs" / "pre-commit.md"
BAD = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.maximum(x, 0)
"""


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, text=True).stdout


def documented_configuration() -> str:
    """The first YAML block of the page's "Using the hook" section."""
    section = DOC.read_text().split("## Using the hook\n", 1)[1]
    return section.split("```yaml\n", 1)[1].split("```", 1)[0]


def host_mslint(folder: Path, tag: str) -> None:
    """A git repository holding the checkout's files as they are now, tagged as the page says to."""
    files = git(REPO, "ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")
    for name in filter(None, files):
        if (REPO / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, folder / name)
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "mslint")
    git(folder, "tag", tag)


def pre_commit_run(project: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(project.parent / "pre-commit-home")}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files"],
        cwd=project,
        capture_output=True,
        text=True,
        env=environment,
        timeout=600,
    )


# pre-commit builds the hook's environment with pip, which installs mslint's dependencies from the package index.
@pytest.mark.network
def test_the_documented_hook_fails_on_a_finding_and_passes_once_fixed(tmp_path: Path) -> None:
    configuration = documented_configuration()
    tag = re.search(r"^\s*rev: (\S+)", configuration, re.M)
    assert tag is not None, configuration
    hosted = tmp_path / "mslint"
    host_mslint(hosted, tag.group(1))

    project = tmp_path / "project"
    project.mkdir()
    git(project, "init", "-q")
    configured = re.sub(r"^(\s*- repo: )\S+", lambda m: m.group(1) + str(hosted), configuration, count=1, flags=re.M)
    assert configured != configuration, "the documented configuration names no repo"
    (project / ".pre-commit-config.yaml").write_text(configured)
    (project / "net.py").write_text(BAD)
    (project / "course.ipynb").write_text(notebook(("code", BAD)))
    (project / "pyproject.toml").write_text('[tool.mslint]\nexclude = ["generated"]\n')
    (project / "generated").mkdir()
    (project / "generated" / "gen.py").write_text(BAD)
    git(project, "add", ".")

    failing = pre_commit_run(project)
    assert failing.returncode == 1, failing.stdout + failing.stderr
    assert "net.py:8:16: MS101 third-party-call-in-graph" in failing.stdout
    assert "course.ipynb:cell 1:8:16: MS101 third-party-call-in-graph" in failing.stdout, "notebooks are hooked"
    assert "gen.py" not in failing.stdout, "the hook applies the exclude setting to the files it is given"

    (project / "net.py").write_text(BAD.replace("np.maximum(x, 0)", "x.clip(0)"))  # gen.py stays as it is
    (project / "course.ipynb").write_text(notebook(("code", BAD.replace("np.maximum(x, 0)", "x.clip(0)"))))
    git(project, "add", "net.py", "course.ipynb")
    passing = pre_commit_run(project)
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert "mslint" in passing.stdout and "Passed" in passing.stdout


def test_the_readme_shows_the_documented_configuration() -> None:
    assert f"```yaml\n{documented_configuration()}```" in (REPO / "README.md").read_text()
