"""The measured table of augmented assignments on tensors (mslint/data/augassign-*.json): every form
of the generator is a row, the rule flags exactly the rows where graph mode diverges from PyNative,
and a sample of rows re-measured on the installed MindSpore matches the shipped table."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings
from mslint.syntax_table import DIVERGENCE, augassign_table, syntax_releases
from tests.examples import REPO
from tests.installed import shipped_for_installed

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

from generate_augassign_table import forms, positions, render  # noqa: E402
from generate_syntax_table import code  # noqa: E402

SYMBOL = "augmented-assignment-in-graph"
SAMPLE = (
    "augassign.input/+=",
    "augassign.input/&=",
    "augassign.input.element/+=",
    "augassign.loop-counter/+=",
    "augassign.local-computed/+=",
    "augassign.parameter/+=",
)


def test_every_form_is_a_row_with_its_code_at_every_position_and_level() -> None:
    rows = json.loads((REPO / "mslint" / "data" / f"augassign-{syntax_releases('augassign')[-1]}.json").read_text())
    assert sorted(rows["rows"]) == sorted(f.id for f in forms())
    for form in forms():
        row = rows["rows"][form.id]
        assert row["code"] == code(form), f"{form.id} changed since the table was measured"
        assert {p: sorted(levels) for p, levels in row["outcomes"].items()} == {
            p: ["lax", "strict"] for p in positions(form)
        }, form.id


def test_the_table_finds_the_issue_s_cases() -> None:
    """The forms the issue reported, as measured: an input written back, a loop counter kept, a
    Parameter agreeing."""
    table = augassign_table("2.10.0")
    for level in ("strict", "lax"):
        written = table.outcome("augassign.input/+=", "construct", level)
        assert written.kind == DIVERGENCE and written.on_hazard_line
        assert written.message.startswith("graph mode writes into the caller's input x: [[5., 6.], [7., 8.]]")
        kept = table.outcome("augassign.loop-counter/+=", "construct", level)
        assert kept.kind == DIVERGENCE and "on call 2" in kept.message
        assert table.outcome("augassign.parameter/+=", "construct", level).kind == "ok"
        assert table.outcome("augassign.input.rebound/+=", "construct", level).kind == "ok"


def test_the_rule_flags_exactly_the_rows_that_diverge(tmp_path: Path) -> None:
    table = augassign_table("2.10.0")
    paths, expected = [], set()
    for index, form in enumerate(forms()):
        diverging = {
            p
            for p in positions(form)
            for level in ("strict", "lax")
            if table.outcome(form.id, p, level).kind == DIVERGENCE
        }
        for position in positions(form):
            program = render(form, position)
            path = tmp_path / f"form{index}_{position}.py"
            path.write_text(program.source)
            paths.append(path)
            # a Cell's construct is read as the top graph and as a sub-Cell: the subcell program's too
            as_cell = {"construct", "subcell"} if position in ("construct", "subcell") else {position}
            if diverging & as_cell:
                expected.add((path.name, program.hazard_line))
    report = check_files(paths, Settings(select=(SYMBOL,)))
    found = {(Path(d.path).name, d.line) for d in report.diagnostics if d.symbol == SYMBOL}
    assert expected and found == expected


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_sample_of_rows_measures_as_the_shipped_table_says() -> None:
    shipped_for_installed(REPO / "mslint" / "data" / f"augassign-{metadata.version('mindspore')}.json")
    assert all(augassign_table().ids(row) == (row,) for row in SAMPLE), "each --only prefix names one row"
    only = [argument for row in SAMPLE for argument in ("--only", row)]
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "generate_augassign_table.py"), "--check", "--recompile", *only],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]


def test_an_input_known_to_be_a_tensor_is_an_error_one_not_inferred_a_warning_and_others_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "net.py"
    path.write_text(
        "from typing import List\n\n"
        "from mindspore import Tensor, nn\n\n\n"
        "class Given(nn.Cell):\n"
        "    def construct(self, x, n, features):\n"
        "        x += 1\n"
        "        n += 1\n"
        "        features[0] += x\n"
        "        return x * n + features[0]\n\n\n"
        "class NeverCalled(nn.Cell):\n"
        "    def construct(self, x, y: Tensor, features: List[Tensor]):\n"
        "        x += 1\n"
        "        y -= 1\n"
        "        features[0] += x\n"
        "        return x + y + features[0]\n\n\n"
        "def run():\n"
        "    return Given()(Tensor([1.0]), 3, [Tensor([1.0])])\n"
    )
    report = check_files([path], Settings(select=(SYMBOL,)))
    assert {(d.line, str(d.severity)) for d in report.diagnostics} == {(8, "error"), (16, "warning"), (17, "warning")}


def test_names_bound_to_each_other_are_followed_once(tmp_path: Path) -> None:
    """`x0 = x; x = x0` (the difftest's programs start so) once sent the search for what `y` holds
    round the two names until the stack ran out, and the module was reported as too deeply nested."""
    path = tmp_path / "net.py"
    path.write_text(
        "import numpy as np\n"
        "from mindspore import Tensor, nn\n\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        x0 = x\n"
        "        x = x0\n"
        "        y = x\n"
        "        y += 1\n"
        "        return y\n\n\n"
        "def run():\n"
        "    return Net()(Tensor(np.ones((2, 3), np.float32)))\n"
    )
    assert [d.message for d in check_files([path], Settings()).diagnostics] == []


def test_a_graph_value_on_the_right_diverges_where_a_constant_does() -> None:
    """The rule reads the rows measured with a constant on the right (``x += 2``): the same
    target updated by a graph value (``x += x * 1``) diverges exactly where they do."""
    table = augassign_table("2.10.0")
    for target in ("input", "local-constant"):
        for row in table.ids(f"augassign.{target}.graph-rhs/"):
            same = row.replace(".graph-rhs/", "/")
            for position in table.positions(row):
                for level in ("strict", "lax"):
                    by_value, by_constant = table.outcome(row, position, level), table.outcome(same, position, level)
                    assert (by_value.kind == DIVERGENCE) == (by_constant.kind == DIVERGENCE), (row, position, level)


def test_the_fix_rebinds_with_the_right_hand_side_in_parentheses_where_it_needs_them(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import Tensor, nn\n\n\n"
        "class Net(nn.Cell):  # mslint: inputs=float32[2]\n"
        "    def construct(self, x, y):\n"
        "        x -= y - 1\n"
        "        y *= self.scale(x)\n"
        "        x[0] += 1\n"
        "        return x + y\n\n"
        "    def scale(self, x):\n"
        "        return x\n"
    )
    fixes = {d.line: d.fix for d in check_files([path], Settings(select=(SYMBOL,))).diagnostics}
    assert set(fixes) == {6, 7, 8}
    assert fixes[8] is None, "an item is not rebound"
    assert [(e.line, e.column, e.end_column, e.content) for f in (fixes[6], fixes[7]) if f for e in f.edits] == [
        (6, 9, 19, "x = x - (y - 1)"),
        (7, 9, 27, "y = y * self.scale(x)"),
    ]
    assert all(f is not None and f.applicability == "unsafe" for f in (fixes[6], fixes[7]))
