"""The committed record of the compiles the syntax, augmented-assignment, fold, inference, kernel and
argument tables rest on (scripts/compile_record.py): ``--check`` checks the table whole from it,
compiling only the programs it does not hold, and fails on a row edited by hand, on a changed program
whose outcome differs, and on an outcome no program of the table gives. Shown on the
augmented-assignment table (1,436 compiles), on the fold table (2,104 compiles), on the inference table
(536 compiles), on the kernel table (1,502 APIs) and on the argument table (581 calls)."""

from __future__ import annotations

import dataclasses
import json
import shutil
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

from tests.examples import REPO

SCRIPTS = REPO / "scripts"
sys.path.insert(0, str(SCRIPTS))

import compile_record  # noqa: E402
import generate_argument_table  # noqa: E402
import generate_augassign_table  # noqa: E402
import generate_fold_table  # noqa: E402
import generate_inference_table  # noqa: E402
import generate_kernel_table  # noqa: E402
import mindspore_table  # noqa: E402
from compile_record import CompileRecord  # noqa: E402
from generate_syntax_table import render_table  # noqa: E402
from graph_syntax.forms import Form, Program  # noqa: E402
from graph_syntax.inference import POSITIONS as INFERENCE_POSITIONS  # noqa: E402

ROW = "augassign.input/+="
"""A row whose program writes into the caller's input: graph mode diverges from PyNative."""


def test_a_record_keeps_the_outcomes_of_the_table_s_compiles_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(mindspore_table, "OUTPUT", tmp_path)
    record = CompileRecord("augassign", "9.9.9")
    kept, dropped = record.key({"source": "a"}), record.key({"source": "b"})
    assert CompileRecord("augassign", "9.9.8").key({"source": "a"}) != kept, "the release is part of the key"
    record.used.update({kept: ["ok"], dropped: ["error", True, "TypeError"]})
    record.write({kept})
    again = CompileRecord("augassign", "9.9.9")
    assert again.outcomes == {kept: ["ok"]} and again.lookup(kept) == ["ok"]
    assert CompileRecord("augassign", "9.9.9", read=False).lookup(kept) is None, "--recompile reads nothing"
    assert again.stale({dropped}) == [kept]
    assert compile_record.keep_or_check(again, {dropped}, True, "regenerate") == 1
    assert compile_record.keep_or_check(again, {kept}, True, "regenerate") == 0


def test_a_record_is_written_the_same_whether_an_outcome_was_measured_or_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kernel outcome measured now has its fields in the order the measurement made them; read
    from the local cache, in sorted order: the record must not change with where it came from."""
    monkeypatch.setattr(mindspore_table, "OUTPUT", tmp_path)
    record = CompileRecord("kernels", "9.9.9")
    key = record.key({"api": "ops.abs"})
    written = []
    for outcome in ({"outcome": "runs", "form": ["x", ""]}, {"form": ["x", ""], "outcome": "runs"}):
        record.used[key] = outcome
        record.write({key})
        written.append((tmp_path / record.name).read_text())
    assert written[0] == written[1]


@dataclasses.dataclass(frozen=True)
class Table:
    """A table checked from its record: its file's name, its generator, the word its log counts its
    compiles with, and an outcome of the record's shape that no program of the table gives."""

    name: str
    generator: ModuleType
    counted: str
    stale_outcome: object

    def __str__(self) -> str:
        return self.name


AUGASSIGN = Table("augassign", generate_augassign_table, "compiles", ["ok"])
FOLDS = Table("folds", generate_fold_table, "compiles", ["ok"])
INFERENCES = Table("inference", generate_inference_table, "compiles", ["ok"])
KERNELS = Table("kernels", generate_kernel_table, "measured", {"outcome": "runs", "form": ["x", ""]})
ARGUMENTS = Table("arguments", generate_argument_table, "measured", {"graph": None, "pynative": None})


def _shipped(table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the shipped table and its record, which its generator checks, without a local cache
    of compiles (those of another run: none)."""
    version = metadata.version("mindspore")
    for name in (f"{table.name}-{version}.json", f"compiles/{table.name}-{version}.json"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(REPO / "mslint" / "data" / name, tmp_path / name)
    monkeypatch.setattr(mindspore_table, "OUTPUT", tmp_path)
    if hasattr(table.generator, "OUTPUT"):  # the kernel and argument tables read parts of the shipped table themselves
        monkeypatch.setattr(table.generator, "OUTPUT", tmp_path)
    monkeypatch.setattr(sys, "argv", [f"{table.generator.__name__}.py", "--check"])
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def _check(table: Table, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = table.generator.main(["--check"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.mindspore
@pytest.mark.parametrize("table", [AUGASSIGN, FOLDS, INFERENCES, KERNELS, ARGUMENTS], ids=str)
def test_the_whole_table_is_checked_from_its_record_without_a_compile(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _shipped(table, tmp_path, monkeypatch)
    code, out, err = _check(table, capsys)
    assert code == 0, out
    assert f" 0 {table.counted} " in err


@pytest.mark.mindspore
@pytest.mark.parametrize("table", [AUGASSIGN, FOLDS, INFERENCES, KERNELS, ARGUMENTS], ids=str)
def test_an_outcome_no_program_gives_fails_the_check(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _shipped(table, tmp_path, monkeypatch) / "compiles" / f"{table.name}-{metadata.version('mindspore')}.json"
    data = json.loads(record.read_text())
    data["outcomes"]["0" * 32] = table.stale_outcome
    record.write_text(json.dumps(data))
    code, out, _ = _check(table, capsys)
    assert code == 1
    assert f"compiles/{table.name}-{metadata.version('mindspore')}.json holds 1 outcomes" in out


@pytest.fixture
def shipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _shipped(AUGASSIGN, tmp_path, monkeypatch)


@pytest.mark.mindspore
def test_a_row_edited_by_hand_fails_the_check(shipped: Path, capsys: pytest.CaptureFixture[str]) -> None:
    version = metadata.version("mindspore")
    table = shipped / f"augassign-{version}.json"
    rows = json.loads(table.read_text())["rows"]
    rows[ROW]["outcomes"]["helper"]["strict"] = ["ok"]
    table.write_text(render_table(version, rows, generate_augassign_table.POSITIONS))
    code, out, err = _check(AUGASSIGN, capsys)
    assert code == 1 and " 0 compiles " in err
    assert any(line.startswith(f'+"{ROW}"') for line in out.splitlines()), out


@pytest.mark.mindspore
def test_a_changed_program_is_compiled_and_its_new_outcome_fails_the_check(
    shipped: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row's programs copy the input before adding to it: nothing is written into the caller's
    input any more. Its 8 compiles (4 positions, 2 levels) are run, and only they."""
    render = generate_augassign_table.render

    def copying_first(form: Form, position: str) -> Program:
        if form.id == ROW:
            form = dataclasses.replace(form, body="x = x * 1\n" + form.body)
        return render(form, position)

    monkeypatch.setattr(generate_augassign_table, "render", copying_first)
    code, out, err = _check(AUGASSIGN, capsys)
    assert code == 1 and " 8 compiles " in err
    assert any(line.startswith(f'-"{ROW}"') and "divergence" in line for line in out.splitlines()), out
    assert any(line.startswith(f'+"{ROW}"') and "divergence" not in line for line in out.splitlines()), out
    assert "holds 8 outcomes of compiles the table does not make any more" in out


FOLD = "fold.truth.self/true/name"
"""A row the parser folds in an ``if`` statement: its dead branch, an undefined name, is never compiled."""


@pytest.fixture
def folds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _shipped(FOLDS, tmp_path, monkeypatch)


@pytest.mark.mindspore
def test_a_fold_row_edited_by_hand_fails_the_check(folds: Path, capsys: pytest.CaptureFixture[str]) -> None:
    version = metadata.version("mindspore")
    table = folds / f"folds-{version}.json"
    rows = json.loads(table.read_text())["rows"]
    rows[FOLD]["outcomes"]["if"]["strict"] = ["error", True, "NameError"]
    table.write_text(render_table(version, rows, generate_fold_table.POSITIONS))
    code, out, err = _check(FOLDS, capsys)
    assert code == 1 and " 0 compiles " in err
    assert any(line.startswith(f'+"{FOLD}"') for line in out.splitlines()), out


@pytest.mark.mindspore
def test_a_changed_fold_program_is_compiled_and_its_new_outcome_fails_the_check(
    folds: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row's test reads a tensor instead of the attribute, which nothing folds: its dead branch is
    compiled in the ``if`` statement too, and fails. Its 4 compiles (``if`` and a conditional expression,
    2 levels) are run, and only they."""
    render = generate_fold_table.render

    def tensor_test(form: Form, position: str) -> Program:
        program = render(form, position)
        if form.id != FOLD:
            return program
        return dataclasses.replace(program, source=program.source.replace(" if self.flag", " if x.sum() > 0"))

    monkeypatch.setattr(generate_fold_table, "render", tensor_test)
    code, out, err = _check(FOLDS, capsys)
    assert code == 1 and " 4 compiles " in err
    assert any(line.startswith(f'-"{FOLD}"') and '"if":{"lax":["ok"]' in line for line in out.splitlines()), out
    assert any(line.startswith(f'+"{FOLD}"') and '"if":{"lax":["error"' in line for line in out.splitlines()), out
    assert "holds 4 outcomes of compiles the table does not make any more" in out


INFERENCE = "conversions.bool/multi-element"
"""A row the compiler refuses at every position: the truth of a tensor of 6 elements is ambiguous."""


@pytest.fixture
def inference(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _shipped(INFERENCES, tmp_path, monkeypatch)


@pytest.mark.mindspore
def test_an_inference_row_edited_by_hand_fails_the_check(inference: Path, capsys: pytest.CaptureFixture[str]) -> None:
    version = metadata.version("mindspore")
    table = inference / f"inference-{version}.json"
    rows = json.loads(table.read_text())["rows"]
    rows[INFERENCE]["outcomes"]["construct"]["lax"] = ["ok"]
    table.write_text(render_table(version, rows, INFERENCE_POSITIONS))
    code, out, err = _check(INFERENCES, capsys)
    assert code == 1 and " 0 compiles " in err
    assert any(line.startswith(f'+"{INFERENCE}"') for line in out.splitlines()), out


@pytest.mark.mindspore
def test_a_changed_inference_program_is_compiled_and_its_new_outcome_fails_the_check(
    inference: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The row takes the truth of the tensor's sum, one element: nothing is ambiguous any more. Its 10
    compiles (5 positions, 2 levels) are run, and only they."""
    forms = generate_inference_table.inference_forms

    def summed() -> list[Form]:
        return [
            dataclasses.replace(form, body=form.body.replace("bool(x)", "bool(x.sum())"))
            if form.id == INFERENCE
            else form
            for form in forms()
        ]

    monkeypatch.setattr(generate_inference_table, "inference_forms", summed)
    code, out, err = _check(INFERENCES, capsys)
    assert code == 1 and " 10 compiles " in err
    assert any(line.startswith(f'-"{INFERENCE}"') and '"lax":["error"' in line for line in out.splitlines()), out
    assert any(line.startswith(f'+"{INFERENCE}"') and '"branch":{"lax":["ok"]' in line for line in out.splitlines()), (
        out
    )
    assert "holds 10 outcomes of compiles the table does not make any more" in out


API = "mint.argmin"
"""An API the kernel table lists: the CPU has no kernel for ``mint.argmin(x)`` (ArgMinExt)."""


@pytest.fixture
def kernels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _shipped(KERNELS, tmp_path, monkeypatch)


@pytest.mark.mindspore
def test_a_kernel_row_edited_by_hand_fails_the_check(kernels: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The row of an API the sample test does not measure is removed: the check measures nothing and
    prints the row it makes."""
    table = kernels / f"kernels-{metadata.version('mindspore')}.json"
    lines = table.read_text().splitlines(keepends=True)
    table.write_text("".join(line for line in lines if not line.startswith(f' "{API}"')))
    code, out, err = _check(KERNELS, capsys)
    assert code == 1 and " 0 measured " in err
    assert any(line.startswith(f'+ "{API}"') for line in out.splitlines()), out


@pytest.mark.mindspore
def test_a_changed_call_is_measured_and_its_new_outcome_fails_the_check(
    kernels: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The API's call becomes ``ops.argmin(x)``, which the CPU has a kernel for: that API is measured,
    and only it, it runs, and the check fails on its row and on its outcome in the record."""
    calls = generate_kernel_table.calls

    def ops_argmin(api: str) -> list[tuple[int, str]]:
        return [(0, "ops.argmin(x)")] if api == API else calls(api)

    monkeypatch.setattr(generate_kernel_table, "calls", ops_argmin)
    code, out, err = _check(KERNELS, capsys)
    assert code == 1 and " 1 measured " in err
    assert any(line.startswith(f'- "{API}"') for line in out.splitlines()), out
    assert "holds 1 outcomes of compiles the table does not make any more" in out


CALL = "ops.interpolate(x, mode='area', size=8)"
"""A call the argument table measures: it runs in both modes."""


@pytest.fixture
def arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return _shipped(ARGUMENTS, tmp_path, monkeypatch)


@pytest.mark.mindspore
def test_an_argument_row_edited_by_hand_fails_the_check(arguments: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A refused call shipped as running: the check measures nothing and prints the line it makes."""
    table = arguments / f"arguments-{metadata.version('mindspore')}.json"
    data = json.loads(table.read_text())
    row = next(row for row in data["apis"]["mindspore.ops.interpolate"]["calls"] if row["graph"])
    refusal = row["graph"]
    row["graph"] = None
    table.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    code, out, err = _check(ARGUMENTS, capsys)
    assert code == 1 and " 0 measured " in err
    shown = f'"graph": {json.dumps(refusal, ensure_ascii=False)}'[:100]  # the check shows 200 characters of a line
    assert any(line.startswith("+") and shown in line for line in out.splitlines()), out


@pytest.mark.mindspore
def test_a_changed_argument_call_is_measured_and_its_new_outcome_fails_the_check(
    arguments: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One call's size becomes a float, which ops.interpolate refuses: that call is measured, and
    only it, and the check fails on its row and on its old outcome in the record."""
    source = generate_argument_table._case_source

    def float_size(index: int, call: str, arguments: dict[str, object], layer: bool) -> str:
        text = source(index, call, arguments, layer)
        return text.replace("size=8)", "size=8.0)") if CALL in text else text

    monkeypatch.setattr(generate_argument_table, "_case_source", float_size)
    code, out, err = _check(ARGUMENTS, capsys)
    assert code == 1 and " 1 measured " in err
    assert any(line.startswith("+") and '"pynative": "TypeError' in line for line in out.splitlines()), out
    assert "holds 1 outcomes of compiles the table does not make any more" in out
