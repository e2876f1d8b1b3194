"""scripts/new_rule.py adds a rule that the registry lists and the engine runs, in a copy of the package."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

from new_rule import add_rule  # noqa: E402


def test_a_new_rule_is_registered_documented_and_run(tmp_path: Path) -> None:
    shutil.copytree(REPO / "mslint", tmp_path / "mslint", ignore=shutil.ignore_patterns("__pycache__"))
    written = add_rule(tmp_path, "tensor-in-a-box", "MS199", "a tensor kept in a box")
    assert [p.relative_to(tmp_path).as_posix() for p in written] == [
        "mslint/rules/tensor_in_a_box.py",
        "mslint/rule_codes.py",
        "rules/tensor-in-a-box/bad.py",
        "rules/tensor-in-a-box/good.py",
    ]
    listed = subprocess.run(
        [sys.executable, "-m", "mslint", "rules", "--format", "json"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    rules = {rule["code"]: rule for rule in json.loads(listed.stdout)}
    assert rules["MS199"]["symbol"] == "tensor-in-a-box"
    page = subprocess.run(
        [sys.executable, "-m", "mslint", "rule", "tensor-in-a-box"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "## What it does" in page.stdout


@pytest.mark.parametrize(
    ("symbol", "code"), [("Bad_Symbol", "MS199"), ("tensor-in-a-box", "X1"), ("variable-slice", "MS199")]
)
def test_a_bad_or_taken_name_is_refused(tmp_path: Path, symbol: str, code: str) -> None:
    (tmp_path / "mslint").mkdir()
    shutil.copy(REPO / "mslint" / "rule_codes.py", tmp_path / "mslint" / "rule_codes.py")
    with pytest.raises(ValueError):
        add_rule(tmp_path, symbol, code, "summary")
    assert not (tmp_path / "rules").exists()
