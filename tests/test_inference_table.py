"""The measured type-inference table (mslint/data/inference-*.json): every form of
scripts/graph_syntax/inference.py has its row, and a sample of rows re-measured on the installed
MindSpore gives what the shipped table says."""

from __future__ import annotations

import sys
import tempfile
from importlib import metadata
from pathlib import Path

import pytest

from mslint.syntax_table import COMPILE_TIME, ERROR, OK
from tests.examples import REPO

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

from generate_inference_docs import inference_table  # noqa: E402
from generate_syntax_table import code, measure  # noqa: E402
from graph_syntax.inference import CLASSES, POSITIONS, inference_forms  # noqa: E402

SAMPLE = ("joins.ifexp/cast-dtype", "conversions.if/one-element", "outputs.dict", "outputs.sub-cell-dict")
"""A rejected join, a conversion and an output beside two forms of the same classes that compile."""


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
def test_a_sample_of_rows_measures_as_the_shipped_table_says() -> None:
    table = inference_table()
    if table.release != metadata.version("mindspore"):
        pytest.skip("no shipped inference table for the installed MindSpore")
    forms = [form for form in inference_forms() if form.id in SAMPLE]
    with tempfile.TemporaryDirectory(prefix="mslint-inference-") as scratch:
        rows, _ = measure(forms, ("construct", "helper"), Path(scratch))
    for form in forms:
        for position, levels in rows[form.id]["outcomes"].items():
            for level, measured in levels.items():
                shipped = table.outcome(form.id, position, level)
                assert measured[0] == shipped.kind, (form.id, position, level, measured)
