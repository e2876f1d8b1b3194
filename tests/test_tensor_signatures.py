"""differs-from-pytorch on Tensor methods called in a form graph mode refuses, as measured by
``scripts/generate_tensor_signature_table.py`` (``mslint/data/tensor-signatures-<release>.json``):
every form measured to run in PyNative and to fail to compile is reported, on a tensor as an error
and on a value of unknown type as a warning; no form measured to compile is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mslint.diagnostics import Severity
from mslint.engine import check_files
from mslint.mindspore_tables import table
from mslint.settings import Settings
from tests.examples import REPO

RELEASE = "2.10.0"
TABLE = table("tensor-signatures", RELEASE)
ROWS = [row for forms in TABLE["methods"].values() for row in forms]
HANDLED_ELSEWHERE = {"transpose"}
"""Methods the rule checks another way (two axes of `transpose`: its own check, with a fix)."""


def _refused(row: dict) -> bool:
    return bool(row["fails_in_graph"]) and "result" in row["pynative"]


def _findings(tmp_path: Path, rows: list[dict], annotated: bool) -> dict[int, tuple[Severity, str]]:
    """Each form's call in a Cell of its own, its inputs given as an input spec (a tensor the
    model knows) or not (graph values of unknown type); the finding on each call's line."""
    lines = ["import mindspore as ms", "from mindspore import nn", ""]
    where = {}
    for index, row in enumerate(rows):
        spec = f"  # mslint: inputs={', '.join(row['inputs'].values())}" if annotated else ""
        lines += [f"class Case{index}(nn.Cell):{spec}", f"    def construct(self, {', '.join(row['inputs'])}):"]
        lines += [f"        return {row['call']}", ""]
        where[len(lines) - 1] = index
    path = tmp_path / "forms.py"
    path.write_text("\n".join(lines))
    report = check_files([path], Settings(select=("differs-from-pytorch",)))
    return {where[d.line]: (d.severity, d.message) for d in report.diagnostics if d.line in where}


def test_the_table_measures_the_ported_methods() -> None:
    assert TABLE["mindspore"] == RELEASE
    assert TABLE["tensor_methods"] > 300
    ported = {"expand", "view", "repeat", "permute", "transpose", "reshape", "flatten", "squeeze", "unsqueeze"}
    ported |= {"size", "sum", "mean", "max", "min", "type", "to", "masked_fill", "scatter", "gather"}
    ported |= {"index_select", "split", "chunk", "std", "var", "new_zeros", "new_ones"}
    assert ported <= set(TABLE["methods"])
    assert set(TABLE["introspected_differences"]) - set(TABLE["methods"]) == set(TABLE["not_measured"])
    assert any(_refused(row) for row in TABLE["methods"]["expand"])


@pytest.mark.parametrize("annotated", [True, False], ids=["input spec", "no input spec"])
def test_refused_forms_are_reported_and_compiled_ones_are_not(tmp_path: Path, annotated: bool) -> None:
    """On a Cell's inputs: every refused form is an error with the compiler's message where the
    inputs have a spec; without one, an argument whose type is not inferred is not judged."""
    rows = [row for row in ROWS if row["call"].split("(")[0][2:] not in HANDLED_ELSEWHERE]
    found = {i: f for i, f in _findings(tmp_path, rows, annotated).items() if "but not in graph mode" in f[1]}
    expected = Severity.ERROR
    for index, row in enumerate(rows):
        if _refused(row) and (annotated or index in found):
            assert index in found, row["call"]
            severity, message = found[index]
            assert severity is expected and row["strict"]["error"] in message, (row["call"], message)
        elif "error" not in row["strict"] and "error" not in row["lax"]:
            assert index not in found, (row["call"], found[index])
    assert len(found) >= (10 if annotated else 5)


@pytest.mark.mindspore
@pytest.mark.measurement
def test_the_table_is_up_to_date() -> None:
    """The generator's --check: every form measured again on the installed MindSpore (about 20 s)."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_tensor_signature_table.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO / "scripts",
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
