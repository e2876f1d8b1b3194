"""The measured table of the conditions MindSpore folds (mslint/data/folds-*.json): every row of the
generator is in it, the dead code fails wherever it is compiled, and the model leaves out of the
analysis exactly the branches of the forms the table folds."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.fold_table import folded_forms
from mslint.model.folds import module_constants
from mslint.settings import Settings
from mslint.syntax_table import syntax_releases
from tests.examples import REPO
from tests.installed import shipped_for_installed

sys.path.insert(0, str(REPO / "scripts"))

from generate_fold_table import cases, forms, positions, render

ROWS = json.loads((REPO / "mslint" / "data" / f"folds-{syntax_releases('folds')[-1]}.json").read_text())["rows"]
RULE_OF_DEAD_CODE = {"name": "undefined-name-in-graph", "attribute": "unsupported-attribute-in-graph"}
"""The rule that flags each kind of dead code where it is analysed."""
STAGE_OF_DEAD_CODE = {"name": "parse", "attribute": "inference"}
NOT_APPLIED = {
    "fold.len-list.module/": "a module's list may be changed in place before the compile: no constant",
    ".training/": "`self.training` is what `set_train` gives, one way to train and another to evaluate",
    "fold.isinstance-ndarray.input/": "`isinstance` is folded against a builtin type and `Tensor` only",
    "fold.hasattr-cell.": "no `hasattr` is folded: on a number the compiler's is not Python's",
}
"""The rows of forms that type inference folds and the model does not (yet), analysing both
branches, and why (the parser's folding of ``if self.training`` is applied)."""


def _folded(row: str, position: str) -> bool:
    return all(cell[0] == "ok" for cell in ROWS[row]["outcomes"][position].values())


def _form_folds(row: str, position: str) -> bool:
    """Whether the table folds the row's form: its condition on its source, at every truth measured."""
    condition, rest = row.removeprefix("fold.").split(".", 1)
    source, _, dead = rest.split("/")
    return (condition, source, position, STAGE_OF_DEAD_CODE[dead]) in folded_forms()


def test_every_form_is_a_row_measured_at_its_positions_and_both_levels() -> None:
    assert sorted(ROWS) == sorted(f.id for f in forms())
    for form in forms():
        assert {p: sorted(levels) for p, levels in ROWS[form.id]["outcomes"].items()} == {
            p: ["lax", "strict"] for p in positions(form)
        }, form.id


def test_the_dead_code_fails_wherever_it_is_compiled() -> None:
    controls = [row for row in ROWS if row.startswith("control.")]
    assert len(controls) == 4
    for row in controls:
        for position, levels in ROWS[row]["outcomes"].items():
            assert all(cell[0] == "error" and cell[1] for cell in levels.values()), (row, position)


def test_the_parser_folds_only_an_if_on_self_and_inference_every_source_and_position() -> None:
    """What 2.10 measured: an undefined name compiles only in the branch an ``if`` statement on an
    attribute of ``self`` (``self.training`` too) skips (not for ``in``, chained comparisons nor ``len``,
    nor on what an attribute holds: ``self.block.flag``, ``self.cfg["flag"]``); a missing attribute, in
    every skipped branch but ``hasattr``'s and ``len`` of a string's (STRICT rejects ``len`` of a string)."""
    parse = {(c, s, p) for c, s, p, stage in folded_forms("2.10.0") if stage == "parse"}
    assert {(s, p) for _, s, p in parse} == {("self", "if"), ("training", "if")}
    assert {c for c, _, _ in parse} == {
        *("truth", "not", "is-none", "is-not-none", "and", "or", "and-decided", "or-decided"),
        *("compare-eq", "compare-lt"),
    }
    inference = {(c, s, p) for c, s, p, stage in folded_forms("2.10.0") if stage == "inference"}
    measured = {(row.split(".")[1], row.split(".")[2].split("/")[0]) for row in ROWS if row.startswith("fold.")}
    # `isinstance(self.flag, np.ndarray)` of an array attribute: the compiler runs the Python while
    # compiling (a compile-time cell, not `ok`), so the form is not one that folds
    unfolded = {("hasattr", s) for _, s in measured} | {("len-str", s) for _, s in measured}
    unfolded.add(("isinstance-ndarray", "self"))
    assert {(c, s) for c, s, _ in inference} == measured - unfolded


def test_the_model_analyses_exactly_the_branches_the_table_does_not_fold(tmp_path: Path) -> None:
    """Each row's program is checked with the rule that flags its dead code: flagged where the table
    does not fold the row's form, silent where it does. A top-level input is given by a call the
    program shows (``Net()(x, False, True)``): the factory that the measurement compiles is not
    one mslint reads; the rows of :data:`NOT_APPLIED` are analysed whole. ``hasattr(c, "real")``
    on a number folds where Python's is false but not where it is true (the compiler's is not
    Python's), so the model folds no ``hasattr``; ``isinstance(c, np.ndarray)`` of an array attribute
    folds where it is false only (the compiler runs the Python of a true one)."""
    expected, found = set(), set()
    not_folded_as_python = set()
    for index, form in enumerate(forms()):
        if form.id.startswith("control."):
            continue
        dead = form.id.rsplit("/", 1)[1]
        for position in positions(form):
            program = render(form, position)
            source = program.source
            if ".input/" in form.id:
                source += f"\n\ndef run():\n    return Net()(_input(), {cases()[form.id].value!r}, True)\n"
            if ".shape/" in form.id:  # the input's shape is what the call shows
                source += "\n\ndef run():\n    return Net()(_input())\n"
            path = tmp_path / f"form{index}_{position}.py"
            path.write_text(source)
            report = check_files([path], Settings(select=(RULE_OF_DEAD_CODE[dead],)))
            if any(d.line == program.hazard_line for d in report.diagnostics):
                found.add((form.id, position))
            not_applied = dead == "attribute" and any(part in form.id for part in NOT_APPLIED)
            if not _form_folds(form.id, position) or not_applied:
                expected.add((form.id, position))
            if _folded(form.id, position) != _form_folds(form.id, position):
                not_folded_as_python.add(form.id.split(".")[1])  # the row folds, its form does not
    assert expected and found == expected
    assert not_folded_as_python == {"hasattr", "isinstance-ndarray"}


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_tenth_of_the_rows_measures_as_the_shipped_table_says() -> None:
    """``--check`` reads the table from its record of compiles (tests/test_compile_record.py): one row in
    25 (17 of 414, of both kinds of dead code, a control among them) is compiled again, for what the
    record's key leaves out (the verifier, the reading of a compile, the Python)."""
    shipped_for_installed(REPO / "mslint" / "data" / f"folds-{metadata.version('mindspore')}.json")
    sample = [form.id for form in forms()[10::25]]
    assert all([f.id for f in forms() if f.id.startswith(row)] == [row] for row in sample), "a prefix names one row"
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_fold_table.py"), "--check", "--recompile"]
        + [argument for row in sample for argument in ("--only", row)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]


def test_a_module_constant_is_a_literal_bound_once_at_the_top_level_and_never_declared_global() -> None:
    """A scalar or a flat tuple of scalars; a list (changed in place by any code) is none."""
    tree = ast.parse(
        "import os\n"
        "USE_BN = False\n"
        "DEPTH: int = 3\n"
        "MODE = 'a'\n"
        "MODE = 'b'\n"
        "if os.name == 'nt':\n"
        "    WIDTH = 1\n"
        "else:\n"
        "    WIDTH = 2\n"
        "SHAPE = (1, 2)\n"
        "SIZES = [1, 2]\n"
        "NESTED = ((1, 2), 3)\n"
        "DEBUG = True\n"
        "def enable():\n"
        "    global DEBUG\n"
        "    DEBUG = False\n"
        "class Config:\n"
        "    SCALE = 2\n"
    )
    assert module_constants(tree) == {"USE_BN": False, "DEPTH": 3, "SHAPE": (1, 2)}
