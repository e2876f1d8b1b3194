"""Fixes: ``--fix`` and ``--diff`` remove exactly the fixed findings, are idempotent, and the
fixed code still compiles with MindSpore."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint.diagnostics import Edit, Fix
from mslint.engine import check_files
from mslint.fixes import apply_fixes
from mslint.settings import Settings
from tests.examples import RULES_DIR, example_files

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


FIXED_RULES = (
    "python-container-of-cells",
    "missing-super-init",
    "forward-instead-of-construct",
    "conv-padding-without-pad-mode",
    "unknown-mindspore-api",
    "differs-from-pytorch",
)


def _fixed_examples(applicability: str) -> list[Path]:
    """The bad examples of the fixed rules with a fix of ``applicability``."""
    return [
        path
        for rule in FIXED_RULES
        for path in sorted((RULES_DIR / rule).glob("bad*.py"))
        if any(d.fix and d.fix.applicability == applicability for d in check_files([path], Settings()).diagnostics)
    ]


def _left_verdict(example: Path) -> str:
    """What MindSpore says of the findings left: differs-from-pytorch's ``bad_measured*.py`` is valid
    MindSpore that means something else than in PyTorch (it compiles); the others fail."""
    measured = example.parent.name == "differs-from-pytorch" and example.name.startswith("bad_measured")
    return "not-reproduced" if measured else "confirmed"


FIX_OPTIONS = {"safe": ("--fix",), "unsafe": ("--fix", "--unsafe-fixes")}


@pytest.fixture(scope="module")
def fixed_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every example of the two tests below, fixed (``FIXED/<applicability>/<rule>/<file>``) and
    compiled in one ``mslint verify`` run on every core, for its result cache (``FIXED/cache``),
    which each test's own verify reads: a verify per example imported MindSpore each time."""
    folder = tmp_path_factory.mktemp("fixed")
    for applicability, options in FIX_OPTIONS.items():
        for example in _fixed_examples(applicability):
            path = _fixed_path(folder, applicability, example)
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(example, path)
            subprocess.run([sys.executable, "-m", "mslint", "check", str(path), *options, "--no-cache"], check=False)
    verify = [sys.executable, "-m", "mslint", "verify", str(folder), "--all", "--no-replicas", "--format", "json"]
    subprocess.run([*verify, "--cache-dir", str(folder / "cache")], capture_output=True, check=False)
    return folder


def _fixed_path(folder: Path, applicability: str, example: Path) -> Path:
    return folder / applicability / example.parent.name / example.name


def _verify_fixed(run: Run, folder: Path, applicability: str, example: Path) -> dict[str, Any]:
    path = _fixed_path(folder, applicability, example)
    code, out, err = run("verify", str(path), "--all", "--format", "json", "--cache-dir", str(folder / "cache"))
    assert code in (0, 1), err
    report: dict[str, Any] = json.loads(out)
    return report


def _unfixed(run: Run, example: Path, tmp_path: Path, kept: Callable[[dict[str, Any]], bool]) -> list[object]:
    """The messages of the findings of ``example`` (a copy outside the repository) that ``kept``."""
    path = tmp_path / example.name
    shutil.copy(example, path)
    return [d["message"] for d in findings(run, path) if kept(d)]


# Under pytest -n, every example in one worker: the fixture above would compile them all again
# in each worker that verifies one. The compiler's verdicts on the fixed examples are facts of the
# release, as its verdicts on the examples are (`measurement`: CI measures them once); the fixed
# text itself is checked on every Python by the tests above.
@pytest.mark.mindspore
@pytest.mark.measurement
@pytest.mark.xdist_group("fixed-compiles")
@pytest.mark.parametrize("example", _fixed_examples("safe"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_fixed_cells_build_and_compile(example: Path, tmp_path: Path, run: Run, fixed_folder: Path) -> None:
    unfixed = _unfixed(run, example, tmp_path, lambda d: not (d["fix"] and d["fix"]["applicability"] == "safe"))
    report = _verify_fixed(run, fixed_folder, "safe", example)
    # A Cell may still fail to build: the evidence of a finding left without a safe fix.
    left = {e["entry"].partition(".")[0] for f in report["findings"] for e in f["evidence"]}
    assert report["compiles"] and all(
        c["status"] == "compiled" or (c["status"] == "build-failed" and c["name"] in left) for c in report["compiles"]
    ), report["compiles"]
    assert report["compiler_only"] == [], "the fixed Cells build and compile without problems"
    assert [f["message"] for f in report["findings"]] == unfixed, "only the findings without a safe fix remain"
    assert all(f["verdict"] == _left_verdict(example) for f in report["findings"]), "MindSpore still says so"


@pytest.mark.mindspore
@pytest.mark.measurement
@pytest.mark.xdist_group("fixed-compiles")
@pytest.mark.parametrize("example", _fixed_examples("unsafe"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_unsafely_fixed_cells_build_and_compile(example: Path, tmp_path: Path, run: Run, fixed_folder: Path) -> None:
    """Unsafe fixes change what the code means, as the finding says it should (`p=rate` in a
    Dropout, `ddof=1`): the code they write compiles too."""
    unfixed = _unfixed(run, example, tmp_path, lambda d: not d["fix"])
    report = _verify_fixed(run, fixed_folder, "unsafe", example)
    assert report["compiles"] and all(c["status"] == "compiled" for c in report["compiles"])
    assert report["compiler_only"] == [], "the fixed Cells build and compile without problems"
    assert [f["message"] for f in report["findings"]] == unfixed, "only the findings without a fix remain"


def test_overlapping_fixes_wait_for_the_next_run() -> None:
    wrap = Fix("wrap", (Edit(1, 5, 1, 5, "f("), Edit(1, 8, 1, 8, ")")))
    replace = Fix("replace", (Edit(1, 5, 1, 8, "[]"),))
    assert apply_fixes("x = [1]\n", [wrap, replace]) == ("x = f([1])\n", 1)
    assert apply_fixes("x = [1]\n", [replace, wrap]) == ("x = []\n", 1)


def test_columns_are_utf8_bytes() -> None:
    fix = Fix("wrap", (Edit(1, 13, 1, 13, "f("), Edit(1, 16, 1, 16, ")")))
    assert apply_fixes("s = 'é'; x=[1]\n", [fix]) == ("s = 'é'; x=f([1])\n", 1)


def test_fixes_sharing_an_edit_are_applied_together() -> None:
    add_import = Edit(2, 1, 2, 1, "from mindspore import nn\n")
    first = Fix("wrap a", (add_import, Edit(3, 5, 3, 5, "nn.CellList("), Edit(3, 8, 3, 8, ")")))
    second = Fix("wrap b", (add_import, Edit(4, 5, 4, 5, "nn.CellList("), Edit(4, 8, 4, 8, ")")))
    source = "import os\n\na = [1]\nb = [2]\n"
    fixed = "import os\nfrom mindspore import nn\n\na = nn.CellList([1])\nb = nn.CellList([2])\n"
    assert apply_fixes(source, [first, second]) == (fixed, 2)
