"""The ``mslint`` command line: output formats, exit codes, selection, configuration, suppressions."""

from __future__ import annotations

import gc
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from mslint.cli import main
from mslint.rules import all_rules
from tests.extras import extra_requirements, quoted_requirements

NUMPY_ON_TENSOR = """
import numpy as np
from mindspore import nn, ops


class Net(nn.Cell):  # mslint: inputs=float32[4], int32[]
    def construct(self, x, n):
        y = np.maximum(x, 0)
        return ops.unique(y)[0][:n]
"""
CLEAN = """
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return x[: x.shape[0] // 2]
"""


def test_text_output_shows_location_source_caret_and_hint(write, run) -> None:
    path = write("net.py", NUMPY_ON_TENSOR)
    code, out, _ = run("check", str(path))
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (
        f"{path}:7:13: MS101 third-party-call-in-graph `numpy.maximum` is called on a graph value; "
        "the graph compiler cannot run it on tensors (reached from Net.construct)"
    )
    assert lines[1] == " 7 |         y = np.maximum(x, 0)"
    assert lines[2] == "   |             ^^^^^^^^^^^^^^^^ warning"
    assert lines[3].startswith("   = hint: use `ops.maximum` (as in `ops.maximum(x, y)`)")
    assert lines[-1] == "Found 3 problems (3 warnings) in 1 file checked."


def test_json_output_has_the_contract_fields(write, run) -> None:
    path = write("net.py", NUMPY_ON_TENSOR)
    code, out, _ = run("check", "--format", "json", str(path))
    diagnostics = json.loads(out)
    assert code == 1
    assert [(d["line"], d["symbol"]) for d in diagnostics] == [
        (7, "third-party-call-in-graph"),
        (8, "variable-slice"),
        (8, "dynamic-shape-op"),
    ]
    first = diagnostics[0]
    contract = {"path", "line", "column", "end_line", "end_column", "code", "symbol", "severity", "message", "fix"}
    assert contract <= set(first)
    assert (first["line"], first["column"], first["end_line"], first["end_column"]) == (7, 13, 7, 29)
    assert (first["code"], first["severity"], first["fix"]) == ("MS101", "warning", None)


def test_relative_paths_stay_relative(write, run, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write("pkg/net.py", NUMPY_ON_TENSOR)
    monkeypatch.chdir(tmp_path)
    _, out, _ = run("check", "--format", "json", "pkg")
    assert {d["path"] for d in json.loads(out)} == {str(Path("pkg/net.py"))}


def test_clean_code_exits_zero(write, run) -> None:
    code, out, _ = run("check", str(write("clean.py", CLEAN)))
    assert code == 0
    assert out.startswith("All checks passed!")


@pytest.mark.parametrize(
    ("options", "symbols"),
    [
        (["--select", "variable-slice"], {"variable-slice"}),
        (["--select", "MS101,MS105"], {"third-party-call-in-graph", "dynamic-shape-op"}),
        (["--ignore", "dynamic-shape-op,MS104"], {"third-party-call-in-graph"}),
        (["--select", "MS1", "--ignore", "MS101"], {"variable-slice", "dynamic-shape-op"}),
    ],
)
def test_select_and_ignore(write, run, options: list[str], symbols: set[str]) -> None:
    path = write("net.py", NUMPY_ON_TENSOR)
    _, out, _ = run("check", "--format", "json", *options, str(path))
    assert {d["symbol"] for d in json.loads(out)} == symbols


def test_syntax_level_and_target_change_severity(write, run) -> None:
    path = write("net.py", NUMPY_ON_TENSOR)
    _, out, _ = run("check", "--format", "json", "--syntax-level", "strict", "--target", "cpu", str(path))
    severities = {d["symbol"]: d["severity"] for d in json.loads(out)}
    assert severities == {"third-party-call-in-graph": "error", "dynamic-shape-op": "info", "variable-slice": "info"}


def test_info_findings_do_not_fail_the_run(write, run) -> None:
    path = write("net.py", NUMPY_ON_TENSOR)
    code, _, _ = run("check", "--target", "cpu", "--select", "MS104,MS105", str(path))
    assert code == 0
    code, _, _ = run("check", "--target", "cpu", "--select", "MS104,MS105", "--fail-on", "info", str(path))
    assert code == 1


def test_nearest_pyproject_configures_the_run(write, run) -> None:
    write(
        "project/pyproject.toml",
        """
        [tool.mslint]
        ignore = ["variable-slice"]
        syntax-level = "strict"
        exclude = ["generated"]

        [tool.mslint.per-file-ignores]
        "models/legacy_*.py" = ["MS105"]
        """,
    )
    write("project/models/net.py", NUMPY_ON_TENSOR)
    write("project/models/legacy_net.py", NUMPY_ON_TENSOR)
    write("project/generated/net.py", NUMPY_ON_TENSOR)
    _, out, _ = run("check", "--format", "json", str(write("project/models/__init__.py", "").parent.parent))
    found = {(Path(d["path"]).name, d["symbol"], d["severity"]) for d in json.loads(out)}
    assert found == {
        ("net.py", "third-party-call-in-graph", "error"),
        ("net.py", "dynamic-shape-op", "warning"),
        ("legacy_net.py", "third-party-call-in-graph", "error"),
    }


def test_line_suppression(write, run) -> None:
    source = NUMPY_ON_TENSOR.replace(
        "np.maximum(x, 0)", "np.maximum(x, 0)  # mslint: disable=third-party-call-in-graph"
    ).replace("[0][:n]", "[0][:n]  # mslint: disable=MS105 because the vocabulary is small")
    _, out, _ = run("check", "--format", "json", str(write("net.py", source)))
    assert [d["symbol"] for d in json.loads(out)] == ["variable-slice"]


def test_syntax_error_is_a_diagnostic(write, run) -> None:
    path = write("broken.py", "class Net(nn.Cell:\n    pass\n")
    code, out, err = run("check", "--format", "json", str(path), str(write("clean.py", CLEAN)))
    diagnostics = json.loads(out)
    assert code == 1
    assert err == ""
    assert [(d["symbol"], d["code"], d["line"], d["severity"]) for d in diagnostics] == [
        ("syntax-error", "MS001", 1, "error")
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check", "does/not/exist.py"], "mslint: error: does/not/exist.py: no such file or directory"),
        (["check", "--select", "no-such-rule", "."], "mslint: error: unknown rule 'no-such-rule' (see `mslint rules`)"),
        (["rule", "no-such-rule"], "mslint: error: unknown rule 'no-such-rule' (see `mslint rules`)"),
    ],
)
def test_usage_errors_are_one_line_with_exit_2(run, args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", message + "\n")


def test_bad_configuration_is_one_line_with_exit_2(write, run) -> None:
    write("pyproject.toml", "[tool.mslint]\ntarget = 'tpu'\n")
    code, _, err = run("check", str(write("net.py", CLEAN)))
    assert code == 2
    assert err.count("\n") == 1
    assert "target must be one of ascend, gpu, cpu, not 'tpu'" in err


def test_undecodable_file_is_a_syntax_error_finding_with_exit_1(tmp_path: Path, run) -> None:
    path = tmp_path / "latin1.py"
    path.write_bytes(b"x = '\xe9'\n")
    code, out, err = run("check", str(path))
    assert (code, err) == (1, "")
    assert out.startswith(f"{path}:1:6: MS001 syntax-error cannot decode: byte 0xe9 at offset 5 is not valid utf-8")


def test_no_traceback_from_the_installed_command(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mslint", "check", str(tmp_path / "missing")], capture_output=True, text=True
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip() == f"mslint: error: {tmp_path / 'missing'}: no such file or directory"


def test_the_command_leaves_the_collector_off_only_in_a_process_of_its_own(
    write, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The console script's check ends the process: a collection after the analysis would only
    rescan the model. Called with arguments (a host, these tests) it leaves the collector on."""
    path = write("net.py", "x = 1\n")
    try:
        assert main(["check", "--no-cache", str(path)]) == 0
        assert gc.isenabled()
        monkeypatch.setattr(sys, "argv", ["mslint", "check", "--no-cache", str(path)])
        assert main() == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
    capsys.readouterr()


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.symbol)
def test_rule_documentation_has_the_four_sections(run, rule) -> None:
    code, out, _ = run("rule", rule.symbol)
    assert code == 0
    assert out.startswith(f"# {rule.symbol} ({rule.code})")
    headings = re.findall(r"^## (.+)$", out, flags=re.MULTILINE)
    assert len(headings) == 4 and headings[1].startswith("Why it "), headings  # graph mode, or what else it breaks
    assert [headings[0], *headings[2:]] == ["What it does", "Example", "Use instead"]


def test_rules_lists_every_rule(run) -> None:
    code, out, _ = run("rules", "--format", "json")
    listed = json.loads(out)
    assert code == 0
    assert [r["symbol"] for r in listed] == [r.symbol for r in all_rules()]
    assert {r["symbol"]: r["severity"] for r in listed}["python-container-of-cells"] == "error"


def test_syntax_error_can_be_ignored_like_any_rule(write, run) -> None:
    path = write("broken.py", "def f(:\n")
    assert run("check", "--ignore", "syntax-error", str(path))[0] == 0


def test_without_pygls_the_server_says_what_to_install(run, monkeypatch: pytest.MonkeyPatch) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pygls" else real_find_spec(name, *a)
    )
    code, out, err = run("server")
    assert (code, out) == (2, "")
    assert err.startswith("mslint: error: the language server needs pygls: pip install ") and err.count("\n") == 1
    assert quoted_requirements(err) == extra_requirements("lsp"), "installs what the lsp extra adds"
