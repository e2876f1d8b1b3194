"""The measured type-inference table (mslint/data/inference-*.json): every form of
scripts/graph_syntax/inference.py has its row (the generated-files test of tests/test_docs.py checks
every row from the record of its compiles, mslint/data/compiles/; one row in ten is compiled again here)."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata

import pytest

from mslint.syntax_table import COMPILE_TIME, ERROR, OK
from tests.examples import REPO
from tests.installed import shipped_for_installed

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

from generate_inference_docs import inference_table  # noqa: E402
from generate_syntax_table import code  # noqa: E402
from graph_syntax.inference import CLASSES, POSITIONS, inference_forms  # noqa: E402


def test_every_form_has_its_measured_row() -> None:
    table = inference_table()
    for form in inference_forms():
        assert table.code(form.id) == code(form), form.id
        assert set(table.positions(form.id)) == {p for p in form.positions() if p in POSITIONS}, form.id


def test_every_class_has_a_form_strict_rejects_and_one_it_compiles() -> None:
    table = inference_table()
    for inference_class in CLASSES:
        kinds = {table.outcome(f.id, "construct", "strict").kind for f in inference_class.forms}
        assert ERROR in kinds and kinds & {OK, COMPILE_TIME}, inference_class.key


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_tenth_of_the_rows_measures_as_the_shipped_table_says() -> None:
    """For what the record's key leaves out (the verifier, the reading of a compile, the Python)."""
    shipped_for_installed(REPO / "mslint" / "data" / f"inference-{metadata.version('mindspore')}.json")
    forms = list(inference_forms())
    sample = [form.id for form in forms[::10]]
    assert all([f.id for f in forms if f.id.startswith(row)] == [row] for row in sample), "a prefix names one row"
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "generate_inference_table.py"), "--check", "--recompile"]
        + [argument for row in sample for argument in ("--only", row)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
