"""The third adversarial audit's probes (issue 42): input that comes with the tree being checked
(ignore files, cache files, shard results) never hangs mslint, exhausts its memory or ends it in
a traceback.

Each probe runs mslint in a process of its own, bounded in time and in memory: a probe that
would hang fails at its timeout, one that would read without end fails at its memory limit."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

NET = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.sum(x)
"""
TIMEOUT_S = 60
"""Far above what each run takes (about a second): only a run that blocks reaches it."""
MEMORY_BYTES = 4 * 1024**3


def _bounded_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def mslint(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-m", "mslint", *args],
            cwd=cwd,
            env={**os.environ, **(env or {})},
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            stdin=subprocess.DEVNULL,
            preexec_fn=_bounded_memory,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"mslint {' '.join(args)} did not end within {TIMEOUT_S} s")


def concise_check(tree: Path) -> subprocess.CompletedProcess[str]:
    return mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)


def checked_files(done: subprocess.CompletedProcess[str]) -> set[str]:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    return {line.split(":")[0] for line in done.stdout.splitlines() if ":" in line}


def repository(tmp_path: Path) -> Path:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    for name in ("net.py", "gen.py"):
        (tmp_path / name).write_text(NET)
    return tmp_path


# Item 1: ignore files that are not regular files are not read (a FIFO blocks, /dev/zero never ends).

IGNORE_FILES = [".gitignore", ".ignore", ".git/info/exclude"]


@pytest.mark.parametrize("name", IGNORE_FILES)
def test_an_ignore_file_that_is_a_fifo_is_not_read(tmp_path: Path, name: str) -> None:
    tree = repository(tmp_path)
    os.mkfifo(tree / name)
    done = concise_check(tree)
    assert done.returncode == 1
    assert checked_files(done) == {"net.py", "gen.py"}


@pytest.mark.parametrize("name", IGNORE_FILES)
def test_an_ignore_file_linked_to_dev_zero_is_not_read(tmp_path: Path, name: str) -> None:
    tree = repository(tmp_path)
    (tree / name).symlink_to("/dev/zero")
    done = concise_check(tree)
    assert done.returncode == 1
    assert checked_files(done) == {"net.py", "gen.py"}


def test_an_ignore_file_larger_than_the_limit_is_not_read_and_one_below_is(tmp_path: Path) -> None:
    from mslint.ignore_files import LARGEST_IGNORE_FILE

    tree = repository(tmp_path)
    padding = "# padding\n" * (LARGEST_IGNORE_FILE // 10)
    (tree / ".gitignore").write_text(padding + "gen.py\n")
    assert checked_files(mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)) == {
        "net.py",
        "gen.py",
    }
    (tree / ".gitignore").write_text("gen.py\n")
    assert checked_files(mslint("check", "--no-cache", "--output-format", "concise", ".", cwd=tree)) == {"net.py"}


# Item 2: a pattern that makes a backtracking matcher take minutes is matched in linear time.


def test_a_pattern_that_backtracks_is_matched_in_linear_time(tmp_path: Path) -> None:
    tree = repository(tmp_path)
    (tree / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b*\n")
    for length in (36, 200):
        (tree / ("a" * length + ".py")).write_text(NET)
    (tree / "abababababababababababababababab.py").write_text(NET)  # 16 a, ends in b: ignored
    done = concise_check(tree)
    assert checked_files(done) == {"net.py", "gen.py", "a" * 36 + ".py", "a" * 200 + ".py"}
