"""Bad input never crashes the run (issue 14): deep code, odd paths, bad configuration and baselines.

Per-file problems are a diagnostic or an error line for that file while the other files are
still checked; usage and configuration errors stop the run with exit code 2; nothing prints
a traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import mslint.cli
import mslint.engine

NUMPY_CELL = """
import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.sum(x)
"""
DEEP_CELL = """
from mindspore import nn


class Deep(nn.Cell):
    def construct(self, x):
        y = {expression}
        return y
"""


def deep_cell(expression: str) -> str:
    return DEEP_CELL.format(expression=expression)


def symbols_by_file(out: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for diagnostic in json.loads(out):
        found.setdefault(Path(diagnostic["path"]).name, set()).add(diagnostic["symbol"])
    return found


# Item 5: deep expressions.


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize(
    "expression",
    [" + ".join(["x"] * 250), " + ".join(["x"] * 2000), "x" + ".sum()" * 200, "x" + "[1:]" * 245, "x" + "[1:]" * 1500],
    ids=["plus-250", "plus-2000", "sum-200", "slice-245", "slice-1500"],
)
def test_deep_expressions_are_analysed_and_other_files_keep_their_findings(write, run, expression, jobs) -> None:
    deep = write("deep.py", deep_cell(expression))
    other = write("other.py", NUMPY_CELL)
    code, out, err = run("check", "--no-cache", "--jobs", jobs, "--format", "json", str(deep), str(other))
    assert (code, err) == (1, "")
    assert symbols_by_file(out) == {"other.py": {"third-party-call-in-graph"}}


def test_a_chain_at_the_parser_limit_is_analysed_or_reported_never_lost(write, run) -> None:
    """3,100 terms: Python 3.11 and 3.12 cannot parse it, 3.9, 3.10 and 3.13 can."""
    deep = write("deep.py", deep_cell(" + ".join(["x"] * 3100)))
    other = write("other.py", NUMPY_CELL)
    code, out, err = run("check", "--no-cache", "--jobs", "2", "--format", "json", str(deep), str(other))
    assert (code, err) == (1, "")
    assert symbols_by_file(out) in (
        {"deep.py": {"syntax-error"}, "other.py": {"third-party-call-in-graph"}},
        {"other.py": {"third-party-call-in-graph"}},
    )


@pytest.mark.parametrize("expression", ["-" * 100_000 + "x"], ids=["unary-minus-100k"])
def test_code_too_deep_to_parse_is_a_syntax_error_on_that_file(write, run, expression) -> None:
    deep = write("deep.py", deep_cell(expression))
    other = write("other.py", NUMPY_CELL)
    code, out, err = run("check", "--no-cache", "--jobs", "2", "--format", "json", str(deep), str(other))
    assert (code, err) == (1, "")
    assert symbols_by_file(out) == {"deep.py": {"syntax-error"}, "other.py": {"third-party-call-in-graph"}}
    assert "too deeply nested to analyse" in out


def test_a_file_whose_analysis_runs_out_of_stack_does_not_cost_the_others_their_findings(
    write, run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No input is known to exhaust the stack after parsing any more: inject the failure into
    # the analysis of every project that holds deep.py.
    real_graph_functions = mslint.engine.graph_functions

    def graph_functions(project, *args):  # type: ignore[no-untyped-def]
        if any(m.path.name == "deep.py" for m in project.modules):
            raise RecursionError("maximum recursion depth exceeded")
        return real_graph_functions(project, *args)

    monkeypatch.setattr(mslint.engine, "graph_functions", graph_functions)
    deep = write("deep.py", deep_cell("x"))
    other = write("other.py", NUMPY_CELL)
    code, out, _ = run("check", "--no-cache", "--format", "json", str(deep), str(other))
    assert code == 1
    assert symbols_by_file(out) == {"deep.py": {"syntax-error"}, "other.py": {"third-party-call-in-graph"}}
    assert "cannot analyse: too deeply nested to analyse" in out


def test_an_internal_error_is_one_line_with_exit_2(write, run, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise KeyError("some key")

    monkeypatch.setattr(mslint.cli, "check_incrementally", broken)
    code, out, err = run("check", str(write("net.py", NUMPY_CELL)))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert err.startswith("mslint: internal error: KeyError: 'some key'") and "please report it" in err


# Item 6: paths.


def test_symlink_loops_are_errors_and_the_other_files_are_checked(tmp_path: Path, write, run) -> None:
    write("tree/net.py", NUMPY_CELL)
    (tmp_path / "tree" / "loop.py").symlink_to("loop.py")
    (tmp_path / "given.py").symlink_to("given.py")
    code, out, err = run("check", "--no-cache", str(tmp_path / "given.py"), str(tmp_path / "tree"))
    assert code == 2
    assert err.splitlines() == [
        f"mslint: error: {tmp_path / 'given.py'}: cannot read: Too many levels of symbolic links",
        f"mslint: error: {tmp_path / 'tree' / 'loop.py'}: cannot read: Too many levels of symbolic links",
    ]
    assert "third-party-call-in-graph" in out
    assert out.splitlines()[-1] == "Found 1 problem (1 warning) in 1 file checked; 2 could not be read."


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_files_that_are_not_regular_are_skipped_with_a_note(tmp_path: Path, write, run) -> None:
    write("tree/net.py", NUMPY_CELL)
    os.mkfifo(tmp_path / "tree" / "fifo.py")
    (tmp_path / "tree" / "zero.py").symlink_to("/dev/zero")
    os.mkfifo(tmp_path / "given.py")
    code, out, err = run("check", "--no-cache", str(tmp_path / "given.py"), str(tmp_path / "tree"))
    assert code == 1
    assert err.splitlines() == [
        f"mslint: note: {tmp_path / 'given.py'}: not a regular file, skipped",
        f"mslint: note: {tmp_path / 'tree' / 'fifo.py'}: not a regular file, skipped",
        f"mslint: note: {tmp_path / 'tree' / 'zero.py'}: a link to a file outside the checked folders, skipped",
    ]
    assert out.splitlines()[-1] == "Found 1 problem (1 warning) in 1 file checked."


def test_an_undecodable_file_never_prints_all_checks_passed(tmp_path: Path, write, run) -> None:
    (tmp_path / "latin1.py").write_bytes(b"x = '\xe9'\n")
    clean = write("clean.py", "x = 1\n")
    code, out, err = run("check", "--no-cache", str(tmp_path / "latin1.py"), str(clean))
    assert (code, err) == (1, "")
    assert "All checks passed" not in out
    assert out.endswith("Found 1 problem (1 error) in 2 files checked.\n")


def test_a_folder_the_walk_cannot_list_is_an_error(tmp_path: Path, write, run, monkeypatch) -> None:
    # Root can list any folder: make one unlistable the way os.walk sees it.
    write("tree/net.py", NUMPY_CELL)
    locked = write("tree/locked/hidden.py", NUMPY_CELL).parent
    real_scandir = os.scandir

    def scandir(path):  # type: ignore[no-untyped-def]
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run("check", "--no-cache", str(tmp_path / "tree"))
    assert code == 2
    assert err == f"mslint: error: {locked}: cannot read folder: Permission denied\n"
    assert out.splitlines()[-1] == "Found 1 problem (1 warning) in 1 file checked; 1 could not be read."


def refuse_as_an_unprivileged_user(monkeypatch: pytest.MonkeyPatch, refused: set[Path]) -> None:
    """Root (CI runs as root) reads and lists whatever its mode says: the calls that read a file
    and list a folder refuse ``refused`` the way they refuse any other user."""
    real_open, real_scandir = os.open, os.scandir

    def opened(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(path) in refused:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    def scandir(path="."):  # type: ignore[no-untyped-def]
        if Path(path) in refused:
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "open", opened)
    monkeypatch.setattr(os, "scandir", scandir)


def test_unreadable_files_and_folders_are_errors(tmp_path: Path, write, run, monkeypatch) -> None:
    write("tree/net.py", NUMPY_CELL)
    unreadable = write("tree/secret.py", NUMPY_CELL)
    locked = write("tree/locked/hidden.py", NUMPY_CELL).parent
    given = write("given/hidden.py", NUMPY_CELL).parent
    for path in (unreadable, locked, given):
        path.chmod(0)
    if not hasattr(os, "geteuid") or os.geteuid() == 0:
        refuse_as_an_unprivileged_user(monkeypatch, {unreadable, locked, given})
    try:
        code, out, err = run("check", "--no-cache", str(given), str(tmp_path / "tree"))
    finally:
        for path in (unreadable, locked, given):
            path.chmod(0o755)
    assert code == 2
    assert sorted(err.splitlines()) == [
        f"mslint: error: {given}: cannot read folder: Permission denied",
        f"mslint: error: {locked}: cannot read folder: Permission denied",
        f"mslint: error: {unreadable}: cannot read: Permission denied",
    ]
    assert "All checks passed" not in out and "third-party-call-in-graph" in out


# Item 7: configuration.


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("fail-on = 1", "fail-on must be one of error, warning, info, none, not 1"),
        ('fail-on = ["error"]', "fail-on must be one of error, warning, info, none, not ['error']"),
        ('ignore = [""]', "empty rule selector (it would match every rule)"),
        ('per-file-ignores = {"*.py" = [""]}', "empty rule selector (it would match every rule)"),
        ("select = []", "no rule selected: --select and select in the configuration need a rule, or ALL"),
    ],
)
def test_bad_setting_values_are_one_line_with_exit_2(write, run, setting: str, message: str) -> None:
    write("pyproject.toml", f"[tool.mslint]\n{setting}\n")
    code, out, err = run("check", "--no-cache", str(write("net.py", NUMPY_CELL)))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.rstrip().endswith(message)


@pytest.mark.parametrize("option", ["--select=", "--select=,"])
def test_an_empty_select_option_is_a_usage_error(write, run, option: str) -> None:
    code, out, err = run("check", "--no-cache", option, str(write("net.py", NUMPY_CELL)))
    assert (code, out) == (2, "")
    assert err == "mslint: error: no rule selected: --select and select in the configuration need a rule, or ALL\n"


def test_a_pyproject_whose_tool_is_not_a_table_is_not_an_mslint_configuration(write, run) -> None:
    write("pyproject.toml", "tool = 3\n")
    net = write("src/net.py", NUMPY_CELL)
    assert run("check", "--no-cache", str(net))[0] == 1
    assert run("check", "--no-cache", "--config", str(net.parent.parent / "pyproject.toml"), str(net))[0] == 1


# Item 9: baselines.


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("[1, 2]", "not an mslint baseline"),
        ("[" * 50_000 + "]" * 50_000, "not a baseline file: nested too deeply"),
    ],
    ids=["array", "deeply-nested"],
)
def test_a_malformed_baseline_is_one_line_with_exit_2(write, run, document: str, message: str) -> None:
    baseline = write("baseline.json", document)
    code, _, err = run("check", "--no-cache", "--baseline", str(baseline), str(write("net.py", NUMPY_CELL)))
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"mslint: error: {baseline}: {message}")
