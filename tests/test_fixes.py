"""Fixes: ``--fix`` and ``--diff`` remove exactly the fixed findings, are idempotent, and the
fixed code still compiles with MindSpore."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.diagnostics import Edit, Fix
from mslint.fixes import apply_fixes
from tests.examples import RULES_DIR, example_files, expected_findings

Run = Callable[..., tuple[int, str, str]]


def findings(run: Run, path: Path) -> list[dict[str, object]]:
    found: list[dict[str, object]] = json.loads(run("check", str(path), "--format", "json", "--no-cache")[1])
    return found


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
@pytest.mark.parametrize(
    "example", [p for p in example_files() if p.name.startswith("bad")], ids=lambda p: p.parent.name
)
def test_fix_removes_the_fixable_findings_and_is_idempotent(
    example: Path, unsafe: bool, tmp_path: Path, run: Run
) -> None:
    path = tmp_path / example.name
    shutil.copy(example, path)
    options = ["--no-cache", *(["--unsafe-fixes"] if unsafe else [])]
    before = findings(run, path)
    fixable = [(d["line"], d["symbol"]) for d in before if d["fix"] and (unsafe or d["fix"]["applicability"] == "safe")]
    run("check", str(path), "--fix", *options)
    after = findings(run, path)
    assert [(d["symbol"], d["message"]) for d in after] == [
        (d["symbol"], d["message"]) for d in before if (d["line"], d["symbol"]) not in fixable
    ]
    text = path.read_text()
    assert run("check", str(path), "--diff", *options)[:2] == (0, ""), "nothing left to fix"
    run("check", str(path), "--fix", *options)
    assert path.read_text() == text


def test_fixed_container_example_compiles(tmp_path: Path, run: Run) -> None:
    path = tmp_path / "bad.py"
    shutil.copy(RULES_DIR / "python-container-of-cells" / "bad.py", path)
    assert run("check", str(path), "--diff", "--no-cache")[0] == 1
    run("check", str(path), "--fix", "--no-cache")
    assert "self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])" in path.read_text()
    out = run("verify", str(path), "--all", "--format", "json")[1]
    report = json.loads(out)
    assert all(c["status"] == "compiled" for c in report["compiles"])
    assert report["compiler_only"] == [], "the fixed Cells compile without problems"
    assert [f["verdict"] for f in report["findings"]] == ["confirmed", "confirmed"], "the unfixed two remain"
    assert len(expected_findings(RULES_DIR / "python-container-of-cells" / "bad.py")) == 5


CONSTRUCTION_RULES = ("missing-super-init", "forward-instead-of-construct", "conv-padding-without-pad-mode")


@pytest.mark.parametrize("symbol", CONSTRUCTION_RULES)
def test_fixed_cells_build_and_compile(symbol: str, tmp_path: Path, run: Run) -> None:
    path = tmp_path / "bad.py"
    shutil.copy(RULES_DIR / symbol / "bad.py", path)
    unfixed = [d["message"] for d in findings(run, path) if not (d["fix"] and d["fix"]["applicability"] == "safe")]
    run("check", str(path), "--fix", "--no-cache")
    report = json.loads(run("verify", str(path), "--all", "--format", "json")[1])
    assert report["compiles"] and all(c["status"] == "compiled" for c in report["compiles"])
    assert report["compiler_only"] == [], "the fixed Cells build and compile without problems"
    assert [f["message"] for f in report["findings"]] == unfixed, "only the findings without a safe fix remain"
    assert all(f["verdict"] == "confirmed" for f in report["findings"]), "and MindSpore still rejects those"


def test_overlapping_fixes_wait_for_the_next_run() -> None:
    wrap = Fix("wrap", (Edit(1, 5, 1, 5, "f("), Edit(1, 8, 1, 8, ")")))
    replace = Fix("replace", (Edit(1, 5, 1, 8, "[]"),))
    assert apply_fixes("x = [1]\n", [wrap, replace]) == ("x = f([1])\n", 1)
    assert apply_fixes("x = [1]\n", [replace, wrap]) == ("x = []\n", 1)


def test_columns_are_utf8_bytes() -> None:
    fix = Fix("wrap", (Edit(1, 13, 1, 13, "f("), Edit(1, 16, 1, 16, ")")))
    assert apply_fixes("s = 'é'; x=[1]\n", [fix]) == ("s = 'é'; x=f([1])\n", 1)
