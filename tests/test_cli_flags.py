"""The flags and habits a ruff user reaches for: --output-format and the concise, json-lines and junit
formats, -o, --exit-zero/-e, --fail-on none, -q, -v, -n, --extend-select/--extend-ignore, file selection
(.gitignore, --exclude, --extend-exclude, --force-exclude), --fix-only, --show-fixes, --add-noqa,
--show-settings, --show-files, --isolated, --cache-dir, --color, --watch, stdin with --stdin-filename,
and errors that name the subcommand."""

from __future__ import annotations

import gc
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

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


def test_concise_prints_one_line_per_finding(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, out, _ = run("check", str(path), "--no-cache", "--output-format", "concise")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3
    assert lines[0].startswith(f"{path}:8:9: MS103 python-container-of-cells ")
    assert lines[1].startswith(f"{path}:11:16: MS101 third-party-call-in-graph ")
    assert lines[2] == "Found 2 problems (1 error, 1 warning) in 1 file checked."
    assert run("check", str(path), "--no-cache", "--format", "concise", "-q")[1] == "\n".join(lines[:2]) + "\n"


def test_json_lines_holds_the_objects_of_the_json_report(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    _, listed, _ = run("check", str(path), "--no-cache", "--format", "json")
    code, out, _ = run("check", str(path), "--no-cache", "--format", "json-lines")
    assert code == 1 and [json.loads(line) for line in out.splitlines()] == json.loads(listed)
    assert run("check", str(write("clean.py", "x = 1\n")), "--no-cache", "--format", "json-lines")[1] == ""


def test_junit_has_a_suite_per_file_and_a_failed_case_per_finding(write: Write, run: Run) -> None:
    net = write("net.py", NET)
    other = write("other.py", NET.replace("self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]", "pass"))
    code, out, _ = run("check", str(net), str(other), "--no-cache", "--format", "junit")
    assert code == 1 and out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ElementTree.fromstring(out)
    assert (root.tag, root.get("tests"), root.get("failures")) == ("testsuites", "3", "3")
    suites = {suite.get("name"): suite for suite in root}
    assert list(suites) == [str(net), str(other)] and suites[str(net)].get("failures") == "2"
    case = suites[str(net)][0]
    assert (case.get("name"), case.get("line"), case.get("column")) == ("org.mslint.MS103", "8", "9")
    failure = case.find("failure")
    assert failure is not None and failure.text is not None and failure.text.startswith("line 8, col 9, ")
    properties = {p.get("name"): p.get("value") for p in case.iter("property")}
    assert properties == {"symbol": "python-container-of-cells", "severity": "error"}


def test_junit_without_findings_is_one_passed_test(write: Write, run: Run) -> None:
    code, out, _ = run("check", str(write("clean.py", "x = 1\n")), "--no-cache", "--format", "junit")
    root = ElementTree.fromstring(out)
    assert code == 0 and (root.get("tests"), root.get("failures")) == ("1", "0")
    assert [case.get("name") for case in root.iter("testcase")] == ["No problems found"]
    assert not list(root.iter("failure"))


def test_junit_replaces_what_xml_cannot_hold(write: Write, run: Run) -> None:
    path = write("odd\x01name.py", NET)
    _, out, _ = run("check", str(path), "--no-cache", "--format", "junit")
    assert ElementTree.fromstring(out)[0].get("name") == str(path).replace("\x01", "\ufffd")


def test_output_file_receives_the_report(write: Write, run: Run, tmp_path: Path) -> None:
    path = write("net.py", NET)
    _, expected, _ = run("check", str(path), "--no-cache", "--format", "json")
    target = tmp_path / "reports" / "new" / "mslint.json"  # folders created, as ruff does
    code, out, _ = run("check", str(path), "--no-cache", "--format", "json", "-o", str(target))
    assert (code, out) == (1, "") and target.read_text(encoding="utf-8") == expected
    run("check", str(path), "--no-cache", "--statistics", "--output-file", str(target))
    statistics = "1\tMS101\tthird-party-call-in-graph\n1\tMS103\tpython-container-of-cells\n"
    assert target.read_text(encoding="utf-8") == statistics


def test_an_output_file_that_cannot_be_written_is_a_usage_error(write: Write, run: Run) -> None:
    folder = write("taken", "a file, not a folder\n")
    code, out, err = run("check", str(write("net.py", NET)), "--no-cache", "-o", str(folder / "out.txt"))
    assert (code, out) == (2, "") and err.startswith(f"mslint: error: {folder / 'out.txt'}: cannot write: ")


def checked(run: Run, *arguments: str) -> list[str]:
    """The files with a finding, of a run on copies of NET."""
    code, out, err = run("check", "--no-cache", "--format", "json", *arguments)
    assert code in (0, 1), err
    return sorted({Path(d["path"]).as_posix() for d in json.loads(out)})


def test_a_folder_walk_leaves_out_what_git_ignores(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("local.py\n")
    write(".gitignore", "generated/\n*_pb2.py\n!keep_pb2.py\n")
    write("src/.gitignore", "/own.py\n")
    for name in ["generated/gen.py", "net.py", "local.py", "x_pb2.py", "keep_pb2.py", "src/own.py", "src/a/own.py"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    assert checked(run, ".") == ["keep_pb2.py", "net.py", "src/a/own.py"]
    assert checked(run, "src") == ["src/a/own.py"], "the .gitignore above the folder named counts too"
    everything = ["generated/gen.py", "keep_pb2.py", "local.py", "net.py", "src/a/own.py", "src/own.py", "x_pb2.py"]
    assert checked(run, ".", "--no-respect-gitignore") == everything
    assert checked(run, "x_pb2.py", "generated") == ["generated/gen.py", "x_pb2.py"], "named on purpose"
    write("pyproject.toml", "[tool.mslint]\nrespect-gitignore = false\n")
    assert checked(run, ".") == everything
    assert checked(run, ".", "--respect-gitignore") == ["keep_pb2.py", "net.py", "src/a/own.py"]


def test_gitignore_counts_only_in_a_repository_and_ignore_files_anywhere(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(".gitignore", "gen.py\n")
    write(".ignore", "tool.py\n")
    for name in ["gen.py", "tool.py"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    assert checked(run, ".") == ["gen.py"], "no .git: git ignores nothing here, as in ruff"


def test_exclude_and_extend_exclude_options(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("pyproject.toml", '[tool.mslint]\nexclude = ["legacy"]\nextend-exclude = ["*_gen.py"]\n')
    for name in ["legacy/old.py", "scripts/new.py", "scripts/a_gen.py", "net.py"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    assert checked(run, ".") == ["net.py", "scripts/new.py"]
    assert checked(run, ".", "--exclude", "scripts") == ["legacy/old.py", "net.py"], "replaces exclude"
    assert checked(run, ".", "--extend-exclude", "scripts/new.py,net.py") == []


def test_force_exclude_skips_excluded_paths_named_on_the_command_line(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write("pyproject.toml", '[tool.mslint]\nexclude = ["legacy", "*_gen.py"]\n')
    for name in ["legacy/deep/old.py", "a_gen.py", "net.py", "build/lib.py"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    named = ["legacy/deep/old.py", "a_gen.py", "net.py", "build/lib.py"]
    assert checked(run, *named) == sorted(named), "named files count, excluded or not"
    assert checked(run, "--force-exclude", *named) == ["net.py"], "by a folder around it, or the built-in list"
    assert checked(run, "--force-exclude", "legacy") == []
    write("pyproject.toml", '[tool.mslint]\nexclude = ["legacy", "*_gen.py"]\nforce-exclude = true\n')
    assert checked(run, *named) == ["net.py"]
    assert checked(run, "--no-force-exclude", *named) == sorted(named)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("force-exclude = 1", "force-exclude must be true or false, not 1"),
        ('respect-gitignore = "no"', "respect-gitignore must be true or false, not 'no'"),
        ('extend-exclude = "x"', "[tool.mslint] extend-exclude must be a list of strings"),
    ],
)
def test_bad_file_selection_settings(setting: str, message: str, write: Write, run: Run) -> None:
    write("pyproject.toml", f"[tool.mslint]\n{setting}\n")
    code, _, err = run("check", str(write("net.py", NET)), "--no-cache")
    assert code == 2 and message in err


FIXED_NET = NET.replace("[nn.Dense(4, 4), nn.Dense(4, 4)]", "nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])")


def test_fix_only_fixes_and_reports_nothing_else(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, out, err = run("check", str(path), "--no-cache", "--fix-only")
    assert (code, out) == (0, ""), "the numpy call left does not fail the run"
    assert path.read_text() == FIXED_NET and "mslint: fixed 1 problem in 1 file\n" in err
    assert run("check", str(path), "--no-cache", "--fix-only")[0] == 0


def test_fix_only_with_stdin_prints_only_the_text(write: Write, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(NET.encode())))
    code, out, err = run("check", "-", "--stdin-filename", str(write("net.py", NET)), "--fix-only")
    assert (code, out, err) == (0, FIXED_NET, "")


def test_show_fixes_without_fix_shows_each_fix_as_a_diff(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, out, _ = run("check", str(path), "--no-cache", "--show-fixes")
    assert code == 1 and path.read_text() == NET, "nothing is written"
    block = out.split("\n\n")[0].splitlines()
    assert block[3:] == [
        "   = hint: wrap it in `nn.CellList(...)`",
        "   = fix: Wrap in `nn.CellList`",
        "              super().__init__()",
        "     -        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]",
        "     +        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])",
    ]
    assert "= fix" not in out.split("\n\n")[1], "the numpy call has no fix"


@pytest.mark.parametrize("flags", [["--format", "json"], ["--statistics"], ["--format", "concise"]])
def test_show_fixes_without_fix_needs_the_text_report(flags: list[str], write: Write, run: Run) -> None:
    code, out, err = run("check", str(write("net.py", NET)), "--no-cache", "--show-fixes", *flags)
    assert (code, out) == (2, "") and err.startswith("mslint: error: --show-fixes without --fix shows each fix")


def test_add_noqa_silences_every_finding_in_place(write: Write, run: Run, tmp_path: Path) -> None:
    text = NET.replace("self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]", "self.layers = [nn.Dense(4, 4)]  # noqa: E501")
    text = text.replace("return np.maximum(x, 0)", "y = np.minimum(x, 1) + np.minimum(x, 2)  # keep\n        return y")
    path = tmp_path / "net.py"
    path.write_bytes(text.replace("\n", "\r\n").encode())
    code, out, err = run("check", str(path), "--no-cache", "--add-noqa")
    assert (code, out) == (0, "") and err == "mslint: added 2 noqa comments in 1 file\n"
    written = path.read_bytes().decode()
    assert written.split("\r\n")[7] == "        self.layers = [nn.Dense(4, 4)]  # noqa: E501, MS103"
    assert written.split("\r\n")[10] == "        y = np.minimum(x, 1) + np.minimum(x, 2)  # keep  # noqa: MS101"
    assert written.replace("  # noqa: MS101", "").replace(", MS103", "") == text.replace("\n", "\r\n")
    assert run("check", str(path), "--no-cache")[0] == 0
    assert run("check", str(path), "--no-cache", "--add-noqa")[2] == "mslint: added 0 noqa comments in 0 files\n"


def test_add_noqa_puts_a_next_line_comment_above_a_line_that_cannot_take_one(write: Write, run: Run) -> None:
    text = NET.replace("return np.maximum(x, 0)", 'return np.maximum(x, """\n        """)')
    text = text.replace("self.layers = [", "self.layers = \\\n            [")
    path = write("net.py", text)
    code, _, err = run("check", str(path), "--no-cache", "--add-noqa")
    assert (code, err) == (0, "mslint: added 2 noqa comments in 1 file\n")
    assert path.read_text() == text.replace(
        "        self.layers", "        # mslint: disable-next-line=MS103\n        self.layers"
    ).replace("        return np", "        # mslint: disable-next-line=MS101\n        return np")
    assert run("check", str(path), "--no-cache")[0] == 0


def test_add_noqa_leaves_a_line_that_no_comment_can_reach(write: Write, run: Run) -> None:
    text = NET.replace("return np.maximum(x, 0)", 'return 1 + \\\n            np.maximum(x, """\n        """)')
    path = write("net.py", text)
    code, _, err = run("check", str(path), "--no-cache", "--add-noqa", "--select", "MS101")
    assert code == 0 and path.read_text() == text
    assert err.splitlines() == [
        f"mslint: note: {path}:12: no noqa comment: the line and the one above it end inside a string or with a "
        "backslash",
        "mslint: added 0 noqa comments in 0 files",
    ]


@pytest.mark.parametrize("flag", ["--fix", "--fix-only", "--diff"])
def test_add_noqa_does_not_combine_with_fixes(flag: str, write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, _, err = run("check", str(path), "--no-cache", "--add-noqa", flag)
    assert code == 2 and "--add-noqa cannot be combined with --fix, --fix-only or --diff" in err
    assert path.read_text() == NET


def test_show_files_lists_what_would_be_checked(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    write(".gitignore", "generated/\n")
    write("pyproject.toml", '[tool.mslint]\nexclude = ["legacy"]\n')
    for name in ["generated/gen.py", "legacy/old.py", "src/net.py", "src/util.pyi", "README.md"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("check", "--show-files")
    assert (code, out) == (0, f"{Path('src/net.py')}\n{Path('src/util.pyi')}\n"), "nothing is checked: exit 0"


def test_show_settings_prints_the_effective_settings_of_the_first_path(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = write(
        "pyproject.toml", '[tool.mslint]\ntarget = "cpu"\n[tool.mslint.per-file-ignores]\n"net.py" = ["MS1"]\n'
    )
    write("net.py", NET)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("check", "net.py", "--show-settings", "--syntax-level", "strict", "--no-cache")
    lines = out.splitlines()
    assert code == 0 and lines[:4] == [
        "# Settings for net.py",
        f"# configuration: {config}",
        f"# root: {tmp_path}",
        "# cache: none",
    ]
    assert {'target = "cpu"', 'syntax-level = "strict"', 'per-file-ignores = {"net.py": ["MS1"]}'} <= set(lines)
    rules = [line for line in lines if line.startswith("# MS")]
    assert "# MS003 useless-suppression" in rules and not any(line.startswith("# MS1") for line in rules)


def test_isolated_reads_no_configuration(write: Write, run: Run, tmp_path: Path) -> None:
    config = write("pyproject.toml", '[tool.mslint]\nignore = ["MS101", "MS103"]\n')
    path = write("net.py", NET)
    assert run("check", str(path), "--no-cache")[0] == 0
    assert codes(run("check", str(path), "--no-cache", "--isolated", "--format", "json")[1]) == ["MS103", "MS101"]
    code, _, err = run("check", str(path), "--isolated", "--config", str(config))
    assert (
        code == 2 and err == "mslint: error: --isolated reads no configuration: it cannot be combined with --config\n"
    )


def test_cache_dir_holds_the_cache(write: Write, run: Run, tmp_path: Path) -> None:
    path = write("net.py", NET)
    cache = tmp_path / "elsewhere"
    first = run("check", str(path), "--cache-dir", str(cache))
    assert list(cache.rglob("*.json")) and not (tmp_path / ".mslint_cache").exists()
    assert run("check", str(path), "--cache-dir", str(cache)) == first


@pytest.mark.parametrize(
    ("flags", "environment", "colored"),
    [
        (["--color", "always"], {}, True),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        ([], {}, False),  # auto: the captured stdout is no terminal
        ([], {"FORCE_COLOR": "1"}, True),
        (["--format", "concise", "--color", "always"], {}, True),
        (["--format", "json", "--color", "always"], {}, False),
    ],
)
def test_color(
    flags: list[str],
    environment: dict[str, str],
    colored: bool,
    write: Write,
    run: Run,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    path = write("net.py", NET)
    _, out, _ = run("check", str(path), "--no-cache", *flags)
    assert ("\x1b[1;31mMS103 python-container-of-cells\x1b[0m" in out) is colored
    assert ("\x1b[" in out) is colored


def test_no_color_turns_auto_off(write: Write, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" not in run("check", str(write("net.py", NET)), "--no-cache")[1]


def test_short_flags(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    assert run("check", str(path), "-n", "-e")[0] == 0
    _, _, err = run("check", str(path), "-n", "-v")
    assert err.splitlines() == [
        "mslint: configuration: none (the defaults)",
        "mslint: cache: none",
        err.splitlines()[2],
    ] and err.splitlines()[2].startswith("mslint: analysed 1 file in ")


def test_fail_on_none_in_the_configuration(write: Write, run: Run) -> None:
    write("pyproject.toml", '[tool.mslint]\nfail-on = "none"\n')
    path = write("net.py", NET)
    code, out, _ = run("check", str(path), "--no-cache")
    assert code == 0 and "MS103" in out
    assert run("check", str(path), "--no-cache", "--fail-on", "error")[0] == 1
    write("pyproject.toml", '[tool.mslint]\nfail-on = "never"\n')
    code, _, err = run("check", str(path), "--no-cache")
    assert code == 2 and "fail-on must be one of error, warning, info, none, not 'never'" in err


@pytest.mark.parametrize("name", ["ms104", "MS104", "Variable-Slice"])
def test_rule_names_in_any_case(name: str, run: Run) -> None:
    code, out, _ = run("rule", name)
    assert code == 0 and out.startswith("# variable-slice (MS104)")


def test_watch_checks_again_when_a_file_changes(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write("net.py", NET)
    config = tmp_path / "pyproject.toml"

    def edit(target: Path, text: str) -> Path:
        target.write_text(text)
        return target

    edits = iter(
        [
            lambda: None,  # nothing changed: no new round
            lambda: edit(path, FIXED_NET),
            lambda: edit(config, "[tool.mslint]\nfail-on = 3\n"),  # a configuration mid-edit
            lambda: edit(config, '[tool.mslint]\nignore = ["MS101"]\n'),
            lambda: write("new.py", NET),  # a new file in the folder
        ]
    )

    def sleep(_: float) -> None:
        edit = next(edits, None)
        if edit is None:
            raise KeyboardInterrupt
        changed = edit()
        if changed is not None:  # a change within the file system's time resolution shows too
            os.utime(changed, ns=(changed.stat().st_atime_ns, changed.stat().st_mtime_ns + 1_000_000_000))

    monkeypatch.setattr("mslint.watch.time.sleep", sleep)
    monkeypatch.chdir(tmp_path)
    code, out, err = run("check", "--watch", "--format", "concise")
    assert code == 130, "Ctrl-C ends it as SIGINT would"
    summaries = [line for line in out.splitlines() if line.startswith(("Found", "All"))]
    assert summaries == [
        "Found 2 problems (1 error, 1 warning) in 1 file checked.",
        "Found 1 problem (1 warning) in 1 file checked.",
        "All checks passed! (1 file checked)",
        "Found 1 problem (1 error) in 2 files checked.",
    ]
    assert "mslint: error: " in err and "fail-on must be one of" in err
    assert err.count("mslint: watching for file changes (Ctrl-C to stop)") == 5


@pytest.mark.parametrize("flag", ["--fix", "--fix-only", "--diff", "--add-noqa"])
def test_watch_does_not_write_files(flag: str, write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, _, err = run("check", str(path), "--watch", flag)
    assert code == 2 and "--watch checks files: not with --fix" in err and path.read_text() == NET


def test_watch_keeps_the_collector_on(
    write: Write, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The one-run process turns the cyclic collector off; a watch lives on, round after round."""
    path = write("net.py", NET)

    def interrupt(_: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("mslint.watch.time.sleep", interrupt)
    monkeypatch.setattr("sys.argv", ["mslint", "check", "--watch", "--no-cache", str(path)])
    try:
        assert main() == 130
        assert gc.isenabled()
    finally:
        gc.enable()
    capsys.readouterr()


def test_a_gitignore_line_git_cannot_read_is_left_out(
    write: Write, run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".git").mkdir()
    write(".gitignore", "!\n[z-a]\ntrailing\\\ngen.py\n")
    for name in ["gen.py", "net.py"]:
        write(name, NET)
    monkeypatch.chdir(tmp_path)
    assert checked(run, ".") == ["net.py"]
