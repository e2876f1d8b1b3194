"""Exact verdicts of ``mslint verify`` on several Cells in one file, each compiled for real:
a Cell's verdict rests on its own compiles, never on another Cell's error in the same file."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint.diagnostics import Diagnostic, Severity
from mslint.settings import Settings, VerifyEntry
from mslint.verify.command import VerifyReport, VerifyRequest, verify
from mslint.verify.compiler_output import ERROR, FALLBACK, UNTRACKED, Problem
from mslint.verify.report import render_json, render_text
from mslint.verify.verdicts import CONFIRMED, NOT_VERIFIABLE, compiler_only, judge

CELLS = """
import numpy as np
from mindspore import nn


class Folded(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x, scale=None):
        if scale is None:
            return x
        return x * np.sqrt(scale)  # line of Folded


class StopsEarly(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x, scale=None):
        with open("weights.txt") as handle:  # line of the stop
            handle.read()
        if scale is None:
            return x
        return x * np.sqrt(scale)  # line after the stop


class BuildFails(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 3, padding=1)  # line of the build error

    def construct(self, x):
        return np.exp(x)  # line never built


class NeedsWidth(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return np.log(x)  # line of NeedsWidth


class WidthFromConfig(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return np.log(x)  # line of WidthFromConfig


class NeedsEverything(nn.Cell):
    def __init__(self, width, depth):
        super().__init__()
        self.width = width

    def construct(self, x, mask):
        return np.tanh(x)  # line of NeedsEverything


class TorchStyle(nn.Cell):  # line of TorchStyle
    def forward(self, x):
        return x


class TorchStyleWithWidth(nn.Cell):  # line of TorchStyleWithWidth
    def __init__(self, width):
        super().__init__()
        self.width = width

    def forward(self, x):
        return x
"""


def line_of(marker: str) -> int:
    return next(number for number, text in enumerate(CELLS.lstrip("\n").splitlines(), 1) if f"# {marker}" in text)


# Under pytest -n, every test here in one worker: the module fixture below (a verify run, made with
# MindSpore) would be made again in each worker that runs a test of the module.
pytestmark = pytest.mark.xdist_group("test_verify_verdicts")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> VerifyReport:
    path = tmp_path_factory.mktemp("cells") / "cells.py"
    path.write_text(textwrap.dedent(CELLS).lstrip("\n"))
    # kwargs in [tool.mslint.verify], the inputs in the comment on the class line
    settings = Settings(verify_entries={"cells:WidthFromConfig": VerifyEntry(kwargs={"width": 3})})
    return verify(VerifyRequest([path], jobs=1, compare=False), settings)


@pytest.fixture(scope="module")
def findings(report: VerifyReport) -> dict[int, dict[str, Any]]:
    return {f["line"]: f for f in json.loads(render_json(report))["findings"]}


@pytest.mark.mindspore
def test_another_cells_error_is_not_a_reason(findings: dict[int, dict[str, Any]]) -> None:
    folded = findings[line_of("line of Folded")]
    assert folded["verdict"] == "not-reproduced"
    assert folded["reason"] is None, "StopsEarly's error in the same file says nothing about Folded"
    stop = findings[line_of("line of the stop")]
    assert stop["verdict"] == "confirmed"
    assert {e["entry"] for e in stop["evidence"]} == {"StopsEarly.construct"}, "evidence names the entry it came from"


@pytest.mark.mindspore
def test_a_line_after_the_stop_is_not_verifiable(findings: dict[int, dict[str, Any]]) -> None:
    after = findings[line_of("line after the stop")]
    assert after["verdict"] == "not-verifiable"
    stop = line_of("line of the stop")
    assert after["reason"].startswith(f"the compile stopped at cells.py:{stop} (") or (
        f"cells.py:{stop} (" in after["reason"]
    ), after["reason"]
    assert after["reason"].endswith("in STRICT and LAX"), after["reason"]
    never_built = findings[line_of("line never built")]
    assert never_built["verdict"] == "not-verifiable"
    assert f"cells.py:{line_of('line of the build error')} (" in never_built["reason"]
    assert "raised building BuildFails" in never_built["reason"]


@pytest.mark.mindspore
def test_summary_counts_builds_and_compiles_that_failed(report: VerifyReport) -> None:
    summary = render_text(report).splitlines()[-1]
    # Seven Cells at two levels each; NeedsEverything is never started. NeedsWidth and
    # TorchStyleWithWidth cannot be built without arguments; TorchStyle has no `construct`;
    # STRICT rejects WidthFromConfig's numpy call on a tensor, LAX falls back.
    counts = (
        r"3 of 14 compiles succeeded on \w+, 2 failed building the entry, 5 stopped at a compile error, "
        r"4 could not be run \(listed under Not compiled\)\."
    )
    assert re.search(counts, summary), summary


@pytest.mark.mindspore
def test_one_message_lists_specs_and_constructor_arguments(findings: dict[int, dict[str, Any]]) -> None:
    reason = findings[line_of("line of NeedsEverything")]["reason"]
    assert "no input specs for NeedsEverything.construct(x, mask)" in reason
    assert "no constructor arguments for NeedsEverything(width, depth)" in reason
    assert '"cells:NeedsEverything" = { inputs = ["float32[N,...]", "float32[N,...]"], ' in reason
    assert "kwargs = { width = ..., depth = ... } }" in reason
    configured = findings[line_of("line of WidthFromConfig")]
    assert configured["verdict"] == "confirmed", "built with the kwargs of the config and the inputs of the comment"
    needs_width = findings[line_of("line of NeedsWidth")]
    assert needs_width["verdict"] == "not-verifiable" and "constructor needs arguments" in needs_width["reason"]


@pytest.mark.mindspore
def test_a_cell_with_only_forward_is_explained_as_such(findings: dict[int, dict[str, Any]]) -> None:
    torch_style = findings[line_of("line of TorchStyle")]
    assert torch_style["symbol"] == "forward-instead-of-construct"
    assert torch_style["verdict"] == "confirmed", "compiling it shows MindSpore's own error"
    assert any("'construct' is not defined" in e["message"] for e in torch_style["evidence"])
    with_width = findings[line_of("line of TorchStyleWithWidth")]
    assert with_width["verdict"] == "not-verifiable"
    assert with_width["reason"].startswith("TorchStyleWithWidth has `forward` and no `construct`"), with_width
    assert "constructor needs arguments" in with_width["reason"]
    assert all("that mslint can compile" not in (f["reason"] or "") for f in findings.values())


@pytest.mark.mindspore
def test_run_passes_the_commands_output_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from mslint.cli import main

    (tmp_path / "train.py").write_text("print('step 1 done')\nraise RuntimeError('out of batteries')\n")
    monkeypatch.chdir(tmp_path)
    code = main(["verify", "train.py", "--run", f"{sys.executable} train.py", "--format", "json"])
    out, err = capfd.readouterr()
    assert json.loads(out)["run"]["returncode"] == 1 and code == 0
    assert "step 1 done" in err, "the command's stdout goes to stderr, as it comes"
    assert "Traceback (most recent call last)" in err and "RuntimeError: out of batteries" in err


RUN_SCRIPT = """
import numpy as np
import mindspore as ms
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE)


class Folded(nn.Cell):
    def construct(self, x, scale=None):
        if scale is None:
            return x
        return x * np.sqrt(scale)  # line of Folded


class StopsEarly(nn.Cell):
    def construct(self, x, scale=None):
        with open("weights.txt") as handle:  # line of the stop
            handle.read()
        if scale is None:
            return x
        return x * np.sqrt(scale)  # line after the stop


x = ms.Tensor(np.ones(2), ms.float32)
Folded()(x)
StopsEarly()(x)
"""


@pytest.mark.mindspore
def test_a_compile_of_the_run_command_that_stopped_is_its_entrys_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    from mslint.cli import main

    (tmp_path / "train.py").write_text(RUN_SCRIPT.lstrip("\n"))
    monkeypatch.chdir(tmp_path)
    main(["verify", "train.py", "--run", f"{sys.executable} train.py", "--format", "json", "--no-compare"])
    out, _ = capfd.readouterr()
    lines = RUN_SCRIPT.lstrip("\n").splitlines()
    line = {
        marker: next(n for n, text in enumerate(lines, 1) if f"# {marker}" in text)
        for marker in ("line of Folded", "line of the stop", "line after the stop")
    }
    findings = {f["line"]: f for f in json.loads(out)["findings"]}
    assert findings[line["line of Folded"]]["verdict"] == "not-reproduced"
    assert findings[line["line of Folded"]]["reason"] is None
    after = findings[line["line after the stop"]]
    assert after["verdict"] == "not-verifiable"
    # The run's record locates the error on the `with` line, or on the definition when the
    # error names no line of train.py (MindSpore 2.10's TypeError for `open` names none).
    stopped_at = {line["line of the stop"], line["line of the stop"] - 2}
    assert any(f"the compile stopped at train.py:{n} (" in after["reason"] for n in stopped_at), after["reason"]
    assert after["reason"].endswith("in your --run command"), after["reason"]


BUMPED = """\
class Box:
    def bump(self):
        self.n += 1
        return self.n

    def read(self):
        return self.n


def construct(box, x):
    return x * box.bump()
"""


STRICT_SELF_WRITE = (
    "RuntimeError: In JIT strict mode, if need to modify a member attribute of a class with self.n, "
    "the member attribute must be of the Parameter type. But got '1' with type 'int'."
)


def test_a_fallback_in_a_method_the_flagged_line_calls_follows_from_it(tmp_path: Path) -> None:
    # LAX interprets the body of `bump` because of the flagged call: the same hazard, not another.
    path = tmp_path / "box.py"
    path.write_text(BUMPED)
    flagged = Diagnostic(str(path), 11, 5, 11, 29, "MS109", "python-side-effect-in-graph", Severity.WARNING, "")
    problems = [
        Problem(ERROR, STRICT_SELF_WRITE, ((str(path), 11),), "strict"),
        Problem(FALLBACK, "interpreted", ((str(path), 3),), "lax"),
        Problem(FALLBACK, "interpreted", ((str(path), 7),), "lax"),
    ]
    left = compiler_only(problems, [flagged], Settings(), {})
    assert [(c.line, c.problem.kind) for c in left] == [(7, FALLBACK)]  # `read` is not called there


SPANNED = """
def construct(self, x):
    y = np.maximum(
        x,
        self.offset,
    )
    return y
"""


def test_a_finding_is_confirmed_by_the_problem_its_rule_predicts_on_its_lines(tmp_path: Path) -> None:
    """A finding over four lines: an error of another rule inside its span neither confirms it nor
    vanishes (it is the compiler's own); a fallback, what third-party-call-in-graph predicts, on
    the line after it does not confirm it either; where its trace names a line of the span it does."""
    path = tmp_path / "net.py"
    path.write_text(SPANNED)
    flagged = Diagnostic(str(path), 3, 9, 6, 6, "MS101", "third-party-call-in-graph", Severity.WARNING, "")
    unsupported = Problem(ERROR, "RuntimeError: Unsupported statement 'Try'.", ((str(path), 5),), "strict")
    off_line = Problem(FALLBACK, "interpreted", ((str(path), 7),), "lax")
    on_line = Problem(FALLBACK, "interpreted", ((str(path), 7), (str(path), 4)), "lax")  # a trace naming it

    assert judge(flagged, None, [unsupported, off_line], {}).verdict == NOT_VERIFIABLE
    left = compiler_only([unsupported, off_line], [flagged], Settings(), {})
    assert [(c.line, c.problem.kind) for c in left] == [(5, ERROR), (7, FALLBACK)]

    confirmed = judge(flagged, None, [unsupported, on_line], {})
    assert (confirmed.verdict, confirmed.evidence) == (CONFIRMED, [on_line])
    left = compiler_only([unsupported, on_line], [flagged], Settings(), {})
    assert [(c.line, c.problem.kind) for c in left] == [(5, ERROR)]


def test_an_error_the_rule_was_never_measured_to_cause_does_not_confirm_it(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(SPANNED)
    flagged = Diagnostic(str(path), 3, 9, 6, 6, "MS107", "unsupported-syntax", Severity.ERROR, "")
    predicted = Problem(ERROR, "RuntimeError: Unsupported statement 'Try'.", ((str(path), 3),), "strict")
    unmeasured = Problem(ERROR, "RuntimeError: a message no example produced", ((str(path), 3),), "strict")
    assert judge(flagged, None, [predicted], {}).verdict == CONFIRMED
    assert judge(flagged, None, [unmeasured], {}).verdict == NOT_VERIFIABLE
    assert [c.line for c in compiler_only([unmeasured], [flagged], Settings(), {})] == [3]


@pytest.mark.mindspore
def test_a_helpers_finding_without_an_entry_is_judged_by_the_cell_that_reaches_it(
    write: Callable[[str, str], Path],
) -> None:
    """A rule that names no entry (an API keyword the release dropped) in a module-level helper:
    the Cell that calls the helper is its target, so the line after the compile's stop is 'the
    compile stopped', not 'outside any Cell'."""
    path = write(
        "helper.py",
        """
        from mindspore import nn, ops


        def padded(x):
            x = ops.pad(x, paddings=((0, 1),))
            return ops.pad(x, paddings=((1, 0),))


        class UsesHelper(nn.Cell):  # mslint: inputs=float32[2]
            def construct(self, x):
                return padded(x)
        """,
    )
    report = verify(VerifyRequest([path], jobs=1, compare=False), Settings(select=["unknown-mindspore-api"]))
    verdicts = {f["line"]: f for f in json.loads(render_json(report))["findings"]}
    assert verdicts[5]["verdict"] == "confirmed", verdicts[5]
    assert verdicts[6]["verdict"] == "not-verifiable"
    reason = verdicts[6]["reason"]
    assert reason.startswith("the compile stopped at ") and f"{path.name}:5 (" in reason, reason


TAKEN = """
class Outer(nn.Cell):
    def __init__(self, net1, net2):
        super().__init__()
        self.param1 = ParameterTuple(net1.get_parameters())
        self.param2 = ParameterTuple(net2.get_parameters())
        self.other = ParameterTuple(net1.get_parameters())

    def construct(self, x):
        return x + self.param1[0] + self.param2[0]
"""
TAKEN_TWICE = (
    "RuntimeError: The parameter @Outer_construct_4:param_name_a , its name 'name_a' already exists. "
    "Please set a unique name for the parameter."
)


def test_parameters_the_cell_does_not_own_follow_from_a_duplicate_name_the_flagged_line_reads(tmp_path: Path) -> None:
    # The Cell keeps one Parameter of each name: the attribute whose Parameter it left out is the
    # duplicate's cause, not another problem; an attribute the flagged line does not read is.
    path = tmp_path / "outer.py"
    path.write_text(TAKEN)
    flagged = Diagnostic(str(path), 10, 37, 10, 48, "MS121", "duplicate-parameter-name", Severity.ERROR, "")
    problems = [
        Problem(ERROR, TAKEN_TWICE, ((str(path), 10), (str(path), 5)), "strict"),
        Problem(UNTRACKED, "Outer.param1 holds parameters the Cell does not own", ((str(path), 5),), "strict"),
        Problem(UNTRACKED, "Outer.other holds parameters the Cell does not own", ((str(path), 7),), "strict"),
    ]
    left = compiler_only(problems, [flagged], Settings(), {})
    assert [(c.line, c.problem.kind) for c in left] == [(7, UNTRACKED)]
