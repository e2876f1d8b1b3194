"""The measured graph-syntax tables (mslint/data/syntax-*.json): the loader, the generator's reading of
a compile, and a sample of rows re-measured on the installed MindSpore against the shipped table."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.release import Release
from mslint.rules.unsupported_syntax import syntax_rows
from mslint.settings import Settings
from mslint.syntax_table import Outcome, SyntaxTable, syntax_release, syntax_releases, syntax_table
from mslint.verify.compiler_output import Problem
from mslint.verify.runner import Job
from mslint.verify.runner import Outcome as CompileOutcome
from mslint.verify.statuses import COMPILED, CRASHED
from tests.examples import REPO
from tests.installed import shipped_for_installed

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

import generate_syntax_table  # noqa: E402
from generate_syntax_table import CRASH_TRIES, cell, code  # noqa: E402
from graph_syntax.catalog import catalog  # noqa: E402
from graph_syntax.forms import render  # noqa: E402

# Rows whose outcomes cover the kinds the compiler shows on small programs, and the two whose LAX
# compiles crash in some runs (generate_syntax_table.CRASH_TRIES); re-measured below.
SAMPLE = (
    "comprehension.list/if-tensor",
    "numpy.split/list-of-tensors",
    "stmt.Import/stdlib",
    "stmt.Try/except",
    "stmt.Delete/local",
    "builtin.min/tensor",
    "builtin.max/constant",
    "builtin.range/tensor",
    "builtin.print/tensor",
    "stdlib.math.sqrt/constant",
    "stdlib.math.sqrt/tensor",
    "stdlib.random.random",
    "numpy.call/tensor",
    "numpy.call/constant",
    "format.fstring/tensor",
    "tensor.for/over-tensor",
    "tensor.while/tensor-cond",
    "state.self-int.augassign",
    "state.self-dict.update",
    "class.plain.tensor",
    "join.if/different-shapes",
    "convert.int/slice-bound",
)


def test_both_releases_are_shipped_and_a_release_picks_the_newest_table_not_newer() -> None:
    assert {"2.8.0", "2.10.0"} <= set(syntax_releases())
    assert syntax_release() == syntax_releases()[-1] == "2.10.0"
    assert syntax_release("2.10.0") == "2.10.0"
    assert syntax_release("2.9.0") == "2.8.0"
    assert syntax_release("2.7.1") == syntax_releases()[0], "older than every table: the oldest"
    assert syntax_table("2.9.0").release == "2.8.0"


def test_a_row_is_looked_up_by_id_position_and_level() -> None:
    table = syntax_table("2.10.0")
    assert table.outcome("builtin.max/constant") == Outcome("ok")
    rejected = table.outcome("stmt.Import/stdlib", "construct", "lax")
    assert rejected.kind == "error" and rejected.on_hazard_line and "Import" in rejected.message
    assert "jit" not in table.positions("state.self-list.append"), "a form reading self has no @jit position"
    with pytest.raises(KeyError):
        table.outcome("state.self-list.append", "jit")
    assert table.ids("stdlib.random.") and all(r.startswith("stdlib.random.") for r in table.ids("stdlib.random."))


def test_unsupported_syntax_flags_the_types_the_table_finds_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    rejected = syntax_rows.rejected_node_types(Release("2.10.0"))
    assert {ast.Import, ast.Try, ast.Delete, ast.ClassDef, ast.Nonlocal, ast.NamedExpr, ast.Set} <= set(rejected)
    assert not {ast.For, ast.While, ast.Assert, ast.Global, ast.Lambda, ast.Yield} & set(rejected)
    row = {"family": "stmt", "code": "", "outcomes": {"construct": {"lax": ["ok"], "strict": ["ok"]}}}
    accepting = SyntaxTable("9.9.9", {"stmt.Try/except": row, "stmt.Import/stdlib": row})
    monkeypatch.setattr(Release, "syntax", property(lambda release: accepting))
    assert syntax_rows.rejected_node_types.__wrapped__(Release("9.9.9")) == {}, "a release that accepts them"


def test_loop_else_is_flagged_on_the_loop_head_where_the_table_finds_it_rejected(tmp_path: Path) -> None:
    """The compiler reports `for ... else` without a line of the user's (the table's cell is an error
    off the hazard line), so rules/ cannot hold a compiler-confirmed marker for it: the table decides."""
    assert syntax_table("2.10.0").outcome("stmt.For/else", "construct", "lax").kind == "error"
    assert syntax_table("2.10.0").outcome("stmt.While/else", "construct", "lax").kind == "error"
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import nn\n\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        for i in range(2):\n"
        "            x = x + i\n"
        "        else:\n"
        "            x = x * 2\n"
        "        while x.sum() > 100:\n"
        "            x = x / 2\n"
        "        else:\n"
        "            x = x * 2\n"
        "        for i in range(2):\n"
        "            x = x + i\n"
        "        return x\n"
    )
    report = check_files([path], Settings())
    assert {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "unsupported-syntax"} == {
        (6, "error"),
        (10, "error"),
    }


def _row(strict: list[object], lax: list[object], grad: list[object] | None = None) -> dict[str, object]:
    outcomes = {"construct": {"strict": strict, "lax": lax}}
    if grad is not None:
        outcomes["grad"] = {"strict": grad, "lax": grad}
    return {"family": "builtin", "code": "", "outcomes": outcomes}


def test_builtins_are_judged_by_their_row_and_the_syntax_level_decides_strict_only_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    table = SyntaxTable(
        "9.9.9",
        {
            "builtin.hash/tensor": _row(["error", True], ["fallback", True]),
            "builtin.sorted/tensor": _row(["error", True], ["fallback", True], grad=["error", True]),
            "builtin.memoryview/constant": _row(["error", True], ["error", True]),
            "builtin.dir/constant": _row(["compile-time", True], ["divergence", True]),
            "builtin.hex/constant": _row(["compile-time", True], ["compile-time", True]),
        },
    )
    use_table(monkeypatch, table)
    source = (
        "from mindspore import nn\n\n\n"
        "class Net(nn.Cell):  # mslint: inputs=float32[4]\n"
        "    def construct(self, x):\n"
        "        a = hash(x)\n"
        "        b = sorted(x)\n"
        "        c = memoryview(b'ab')\n"
        "        d = len(dir(self))\n"
        "        e = hex(255)\n"
        "        f = hash(3)\n"
        "        return x\n"
    )
    path = tmp_path / "net.py"
    path.write_text(source)
    for level, hash_severity in (("lax", "warning"), ("strict", "error")):
        report = check_files([path], Settings(syntax_level=level))
        found = {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "unsupported-syntax"}
        assert found == {(6, hash_severity), (7, "error"), (8, "error"), (9, "error")}, level


def _cells(**positions: tuple[list[object], list[object]]) -> dict[str, object]:
    return {"family": "", "code": "", "outcomes": {p: {"strict": s, "lax": lax} for p, (s, lax) in positions.items()}}


def test_a_form_in_a_loop_or_under_an_if_on_a_tensor_takes_the_most_severe_cell_of_its_positions(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    ok = (["ok"], ["ok"])
    joined = ["error", True, "TypeError: Cannot join the return values of different branches, perhaps ..."]
    table = SyntaxTable(
        "9.9.9",
        {
            "expr.Lambda/local": _cells(construct=ok, loop=(["ok"], ["fallback", True]), branch=ok),
            "builtin.hash/tensor": _cells(construct=ok, loop=ok, branch=(["error", True, "TypeError: no"],) * 2),
            "builtin.iter/tensor": _cells(construct=ok, loop=ok, branch=(joined, joined)),
            "builtin.sorted/tensor": _cells(
                construct=(["error", True], ["fallback", True]),
                grad=(["error", True], ["error", True]),
                loop=(["error", True], ["error", True]),
            ),
        },
    )
    use_table(monkeypatch, table)
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import nn\n\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        f = lambda v: v * 2\n"
        "        a = hash(x) + iter(x)\n"
        "        for _ in range(2):\n"
        "            g = lambda v: v * 3\n"
        "            b = hash(x) + sorted(x)\n"
        "        if x.shape[0] == 2:\n"
        "            c = hash(x)\n"
        "        if x.sum() > 0:\n"
        "            h = lambda v: v * 4\n"
        "            d = hash(x) + iter(x)\n"
        "        return x\n"
    )
    for level, lambda_severity in (("lax", "warning"), ("strict", "info")):
        report = check_files([path], Settings(syntax_level=level))
        found = {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "unsupported-syntax"}
        assert found == {(9, lambda_severity), (10, "error"), (15, "error")}, level
        messages = {d.line: d.message for d in report.diagnostics}
        assert "a `lambda` in a `for` loop: STRICT compiles it, LAX runs it" in messages[9]
        assert "`sorted` of a graph value in graph code in a `for` loop: MindSpore rejects it" in messages[10]
        assert "`hash` of a graph value in graph code under an `if` on a tensor: MindSpore" in messages[15]


def test_super_in_a_function_outside_a_class_reads_the_jit_cell_wherever_graph_code_calls_it(tmp_path: Path) -> None:
    """The compiler reports it on the call of the function (the marker of rules/ stands in the @jit
    function itself); a method's `super()` compiles."""
    assert syntax_table("2.10.0").outcome("builtin.super/constant", "jit", "lax").kind == "error"
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import nn\n\n\n"
        "def scaled(x):\n"
        "    return x * (super() is not None)\n\n\n"
        "class Net(nn.Cell):\n"
        "    def construct(self, x):\n"
        "        return scaled(x) * (super() is not None)\n"
    )
    report = check_files([path], Settings())
    assert {(d.line, str(d.severity)) for d in report.diagnostics if d.symbol == "unsupported-syntax"} == {(5, "error")}


@pytest.mark.parametrize("release", syntax_releases())
def test_every_form_of_the_catalog_is_a_row_with_its_code_and_its_positions(release: str) -> None:
    """The newest release at every position; older ones at least in construct, run and grad."""
    rows = json.loads((REPO / "mslint" / "data" / f"syntax-{release}.json").read_text())["rows"]
    forms = catalog()
    assert sorted(rows) == sorted(f.id for f in forms)
    for form in forms:
        measured = set(rows[form.id]["outcomes"])
        assert measured <= set(form.positions()) and {"construct", "run", "grad"} <= measured, form.id
        if release == syntax_releases()[-1]:
            assert measured == set(form.positions()), form.id
        assert rows[form.id]["code"] == code(form), f"{form.id} changed since the table was measured"


def _compiled(problems: list[Problem], path: Path) -> CompileOutcome:
    return CompileOutcome(Job(path, "make", "lax", factory=True), COMPILED, problems=problems)


def test_a_cell_keeps_the_most_severe_outcome_and_whether_it_is_on_the_hazard_line(tmp_path: Path) -> None:
    program = render(catalog()[0], "construct")
    path = tmp_path / "form.py"
    path.write_text(program.source)
    here, there = (str(path.resolve()), program.hazard_line), (str(path.resolve()), program.hazard_line + 1)
    assert cell(_compiled([], path), program, tmp_path) == ["ok"]
    assert cell(
        _compiled([Problem("compile-time", "once", (here,)), Problem("fallback", "interpreted", (there,))], path),
        program,
        tmp_path,
    ) == ["fallback", False]
    error = Problem("error", f"TypeError: bad\nIn file {tmp_path}/form.py:3, at 0x7f12ab", (there, here))
    assert cell(_compiled([Problem("fallback", "f", (here,)), error], path), program, tmp_path) == [
        "error",
        True,
        "TypeError: bad",
    ]
    crashed = CompileOutcome(Job(path, "make", "lax", factory=True), CRASHED, f"died in {tmp_path}/form.py at 0xdead")
    assert cell(crashed, program, tmp_path) == [CRASHED, False, "died in form.py at 0x?"]


def test_a_compile_that_crashes_is_compiled_again_and_its_cell_is_what_it_ends_in(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A compile that crashes in some runs is recorded by the run that ends; one that crashes each
    time is a crash, without the signal (a compile that crashes each time need not die of the same)."""
    jobs = [Job(tmp_path / name, "make", "lax", factory=True) for name in ("ends.py", "dies.py")]
    calls: list[list[str]] = []

    def run_jobs(batch: list[Job], *_: object) -> list[CompileOutcome]:
        calls.append([job.path.name for job in batch])
        ended = len(calls) == 2
        return [
            CompileOutcome(job, COMPILED if ended and job.path.name == "ends.py" else CRASHED, "crashed (SIGSEGV)")
            for job in batch
        ]

    monkeypatch.setattr(generate_syntax_table, "run_jobs", run_jobs)
    ends, dies = generate_syntax_table.compile_until_it_ends(jobs)
    assert calls == [["ends.py", "dies.py"], ["ends.py", "dies.py"]] + [["dies.py"]] * (CRASH_TRIES - 2)
    assert (ends.status, dies.status) == (COMPILED, CRASHED)
    program = render(catalog()[0], "construct")
    assert cell(CompileOutcome(jobs[1], CRASHED, "compiler process crashed (SIGABRT)"), program, tmp_path) == [
        CRASHED,
        False,
        "compiler process crashed",
    ]


def test_the_shipped_table_records_what_a_compile_ends_in_and_no_crash_signal() -> None:
    table = syntax_table("2.10.0")
    cells = [(row, p, level) for row in table.ids() for p in table.positions(row) for level in ("strict", "lax")]
    crashes = [table.outcome(*c) for c in cells if table.outcome(*c).kind == CRASHED]
    assert crashes and {o.message for o in crashes} == {"compiler process crashed"}
    for position in ("construct", "helper", "loop"):  # each crashed in some runs
        assert table.outcome("comprehension.list/if-tensor", position, "lax").kind == "fallback", position
    assert table.outcome("numpy.split/list-of-tensors", "jit", "lax").kind == "fallback"
    grad = table.outcome("numpy.split/list-of-tensors", "grad", "lax")
    assert grad.kind == "error" and grad.message.startswith("TypeError: For Operator[Concat]")


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_sample_of_rows_measures_as_the_shipped_table_says() -> None:
    shipped_for_installed(REPO / "mslint" / "data" / f"syntax-{metadata.version('mindspore')}.json")
    assert all(syntax_table().ids(row) == (row,) for row in SAMPLE), "each --only prefix names one row"
    only = [argument for row in SAMPLE for argument in ("--only", row)]
    # construct in LAX is where the divergence column was measured (--compare): not re-measured here
    only += ["--position", "helper", "--position", "jit", "--position", "grad"]
    result = subprocess.run(
        [sys.executable, str(SCRIPTS / "generate_syntax_table.py"), "--check", "--recompile", *only],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]


def use_table(monkeypatch: pytest.MonkeyPatch, table: SyntaxTable) -> None:
    """unsupported-syntax reads ``table`` instead of the release's, uncached, in every family that reads it."""
    monkeypatch.setattr(Release, "syntax", property(lambda release: table))
    monkeypatch.setattr(syntax_rows, "measured_verdict", syntax_rows.measured_verdict.__wrapped__)
