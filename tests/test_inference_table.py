"""The measured type-inference table (mslint/data/inference-*.json): every form of
scripts/graph_syntax/inference.py has its row (the generated-files test of tests/test_docs.py
re-measures every row on the installed MindSpore)."""

from __future__ import annotations

import sys

from mslint.syntax_table import COMPILE_TIME, ERROR, OK
from tests.examples import REPO

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
