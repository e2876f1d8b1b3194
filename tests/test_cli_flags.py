"""The flags a ruff user reaches for: --output-format, --exit-zero, --fail-on none, -q, --extend-select,
--extend-ignore, --show-fixes, stdin with --stdin-filename, and errors that name the subcommand."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.cli import main

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

NET = """\
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]

    def construct(self, x):
        return np.maximum(x, 0)
"""


def codes(out: str) -> list[str]:
    return [d["code"] for d in json.loads(out)]


def test_output_format_is_an_alias_of_format(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    assert codes(run("check", str(path), "--output-format", "json", "--no-cache")[1]) == ["MS103", "MS101"]


@pytest.mark.parametrize("flags", [["--exit-zero"], ["--fail-on", "none"]])
def test_findings_do_not_fail_the_run(flags: list[str], write: Write, run: Run) -> None:
    code, out, _ = run("check", str(write("net.py", NET)), "--no-cache", *flags)
    assert code == 0 and "MS103" in out


def test_exit_zero_keeps_usage_errors(run: Run) -> None:
    assert run("check", "does/not/exist.py", "--exit-zero")[0] == 2


def test_quiet_prints_the_findings_only(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    _, loud, _ = run("check", str(path), "--no-cache")
    _, quiet, _ = run("check", str(path), "--no-cache", "-q")
    assert "Found 2 problems" in loud and "Found" not in quiet
    assert quiet.strip() and loud.startswith(quiet.rstrip("\n"))


def test_extend_select_and_extend_ignore(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    assert codes(run("check", str(path), "--format", "json", "--select", "MS101", "--extend-select", "MS103")[1]) == [
        "MS103",
        "MS101",
    ]
    assert codes(run("check", str(path), "--format", "json", "--extend-ignore", "MS101")[1]) == ["MS103"]


def test_extend_select_and_extend_ignore_in_the_configuration(write: Write, run: Run) -> None:
    write("pyproject.toml", '[tool.mslint]\nselect = ["MS101"]\nextend-select = ["MS103"]\nextend-ignore = ["MS101"]\n')
    assert codes(run("check", str(write("net.py", NET)), "--format", "json", "--no-cache")[1]) == ["MS103"]


def test_show_fixes_lists_what_was_fixed(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, _, err = run("check", str(path), "--no-cache", "--fix", "--show-fixes")
    assert f"mslint: fixed {path}:8:9: MS103 python-container-of-cells" in err
    assert "nn.CellList(" in path.read_text() and code == 1  # the numpy call has no fix


def test_statistics_in_sarif_is_an_error(write: Write, run: Run) -> None:
    code, out, err = run("check", str(write("net.py", NET)), "--statistics", "--format", "sarif")
    assert (code, out) == (2, "") and err == "mslint: error: --statistics prints text or json, not sarif\n"


def test_an_unknown_flag_prints_the_subcommands_usage(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", "--bogus", "."])
    err = capsys.readouterr().err
    assert exit_.value.code == 2
    assert err.startswith("usage: mslint check ") and "--fail-on" in err
    assert err.rstrip().endswith("mslint check: error: unrecognized arguments: --bogus")


def test_stdin_is_checked_as_the_named_file(write: Write, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the named file's configuration, and the files of its folder as context."""
    write("project/pyproject.toml", '[tool.mslint]\nignore = ["MS103"]\n')
    base = write("project/pkg/base.py", "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n")
    text = NET.replace("from mindspore import nn", "from base import Base").replace("(nn.Cell)", "(Base)")
    name = str(base.parent / "net.py")  # not on disk: the text comes from stdin
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, _ = run("check", "-", "--stdin-filename", name, "--format", "json")
    assert code == 1
    assert [(d["path"], d["code"]) for d in json.loads(out)] == [(name, "MS101")], "a Cell through base.py"


def test_fix_with_stdin_prints_the_fixed_text(write: Write, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write("net.py", NET)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(NET.encode())))
    code, out, err = run("check", "-", "--stdin-filename", str(path), "--fix")
    assert out == NET.replace("[nn.Dense(4, 4), nn.Dense(4, 4)]", "nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])")
    assert "MS101" in err and code == 1, "the findings left go to stderr"
    assert path.read_text() == NET, "the file on disk is not touched"
