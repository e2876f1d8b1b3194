"""Baselines: record the findings of today, report only new ones tomorrow."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.examples import RULES_DIR

Run = Callable[..., tuple[int, str, str]]
BAD = (RULES_DIR / "third-party-call-in-graph" / "bad.py").read_text()
NEW_FINDING = """

class Added(nn.Cell):
    def construct(self, x):
        return np.exp(x)
"""


@pytest.fixture
def legacy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run) -> Path:
    """A project with six findings, recorded in mslint-baseline.json."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "net.py").write_text(BAD)
    code, out, _ = run("baseline", "src", "-o", "mslint-baseline.json")
    assert code == 0 and out == "Recorded 6 findings of 1 files in mslint-baseline.json.\n"
    return tmp_path / "src" / "net.py"


def test_recorded_findings_are_not_reported(legacy: Path, run: Run) -> None:
    assert run("check", "src")[0] == 1
    assert run("check", "src", "--baseline", "mslint-baseline.json") == (0, "All checks passed! (1 file checked)\n", "")


def test_unrelated_edits_that_move_lines_keep_findings_matched(legacy: Path, run: Run) -> None:
    legacy.write_text(
        '"""A new docstring."""\n\n\n' + legacy.read_text().replace("import math\n", "import math\nimport os\n")
    )
    assert run("check", "src", "--baseline", "mslint-baseline.json")[0] == 0


def test_only_new_findings_are_reported(legacy: Path, run: Run) -> None:
    legacy.write_text(legacy.read_text() + NEW_FINDING)
    code, out, _ = run("check", "src", "--baseline", "mslint-baseline.json", "--format", "json")
    assert code == 1
    assert [(d["line"], d["entry"]) for d in json.loads(out)] == [(53, "Added.construct")]


def test_a_second_identical_finding_is_new(legacy: Path, run: Run) -> None:
    source = legacy.read_text()
    legacy.write_text(source.replace("    return np.abs(x)", "    y = np.abs(x)\n    return np.abs(x)"))
    code, out, _ = run("check", "src", "--baseline", "mslint-baseline.json", "--format", "json")
    assert code == 1 and len(json.loads(out)) == 1


def test_fixed_findings_disappear_and_stale_entries_show_with_verbose(legacy: Path, run: Run) -> None:
    legacy.write_text(legacy.read_text().replace("return np.abs(x)", "return ms.ops.abs(x)"))
    assert run("check", "src", "--baseline", "mslint-baseline.json") == (0, "All checks passed! (1 file checked)\n", "")
    code, _, err = run("check", "src", "--baseline", "mslint-baseline.json", "--verbose")
    assert code == 0
    stale = [line for line in err.splitlines() if "baseline" in line]  # --verbose also names the cache, the time
    assert stale == ["mslint: baseline entry no longer found: src/net.py:48: MS101 third-party-call-in-graph"]


def test_baseline_paths_are_relative_to_the_baseline_file(
    legacy: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = json.loads(Path("mslint-baseline.json").read_text())
    assert {f["path"] for f in recorded["findings"]} == {"src/net.py"}
    monkeypatch.chdir(legacy.parent)
    assert run("check", ".", "--baseline", "../mslint-baseline.json")[0] == 0


def test_bad_baselines_are_one_line_errors(tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("net.py").write_text("x = 1\n")
    Path("other.json").write_text('{"findings": []}')
    Path("broken.json").write_text("{")
    for name, message in (
        ("missing.json", "cannot read baseline"),
        ("other.json", "not an mslint baseline"),
        ("broken.json", "not a baseline file"),
    ):
        code, out, err = run("check", "net.py", "--baseline", name)
        assert (code, out) == (2, "") and message in err and err.count("\n") == 1, err
