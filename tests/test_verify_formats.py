"""``mslint verify --format sarif|github``: each verdict with its evidence, and the compiler-only
problems, through ``mslint check``'s renderers. The report is built by hand from real findings:
what is tested is the rendering, not MindSpore."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from mslint.diagnostics import Severity
from mslint.engine import check_files
from mslint.settings import Settings
from mslint.verify.command import VerifyReport
from mslint.verify.compiler_output import DIVERGENCE, ERROR, FALLBACK, Problem
from mslint.verify.report import COMPILER_ONLY_CODE, render
from mslint.verify.verdicts import CONFIRMED, NOT_REPRODUCED, NOT_VERIFIABLE, CompilerOnly, Verdict
from tests.test_output_formats import sarif_schema

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

NET = """
import numpy as np
from mindspore import nn

counter = 0


class A(nn.Cell):
    def construct(self, x):
        return np.exp(x)


class B(nn.Cell):
    def construct(self, x):
        return np.log(x)


class C(nn.Cell):
    def construct(self, x):
        return np.sqrt(x)


class D(nn.Cell):
    def construct(self, x):
        return x * counter
"""
SPECIFIED = """\
class A(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.exp(x)
"""
STOPPED = "ValueError: the inputs should be constant"


@pytest.fixture
def report(write: Write, monkeypatch: pytest.MonkeyPatch) -> VerifyReport:
    """One finding of each verdict on net.py, and a compiler-only divergence on its last line."""
    path = write("net.py", NET)
    monkeypatch.chdir(path.parent)
    a, b, c = sorted(check_files([Path("net.py")], Settings()).diagnostics, key=lambda d: d.line)
    here = str(path.resolve())
    evidence = [
        Problem(ERROR, STOPPED, ((here, a.line),), "strict"),
        Problem(FALLBACK, "interpreted by Python", ((here, a.line),), "lax"),
        Problem(FALLBACK, "interpreted by Python", ((here, a.line),), "lax"),
    ]
    divergence = Problem(DIVERGENCE, "output 0 differs: graph 1.0, PyNative 2.0", ((here, 24),), "lax")
    verdicts = [
        Verdict(a, CONFIRMED, evidence),
        Verdict(b, NOT_REPRODUCED),
        Verdict(c, NOT_VERIFIABLE, reason="no input specs for C.construct(x)"),
    ]
    return VerifyReport(
        verdicts, [CompilerOnly("net.py", 24, Severity.WARNING, divergence, "D.construct")], [], None, [], 1.0
    )


def test_sarif_carries_verdicts_evidence_and_compiler_only_problems(report: VerifyReport) -> None:
    log = json.loads(render("sarif", report))
    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    run = log["runs"][0]
    rules, results = run["tool"]["driver"]["rules"], run["results"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    lines = {r["locations"][0]["physicalLocation"]["region"]["startLine"]: r for r in results}
    assert sorted(lines) == [9, 14, 19, 24]
    confirmed = lines[9]
    assert (confirmed["ruleId"], confirmed["level"]) == ("MS101", "warning")
    assert confirmed["message"]["text"].count("interpreted by Python") == 1
    assert (
        f"[confirmed: compile failed in STRICT: {STOPPED}; fell back to Python in LAX: interpreted by Python]"
        in confirmed["message"]["text"]
    )
    assert (lines[14]["level"], lines[19]["level"]) == ("note", "note")
    assert "[not reproduced]" in lines[14]["message"]["text"]
    assert "[not verifiable: no input specs for C.construct(x)]" in lines[19]["message"]["text"]
    divergence = lines[24]
    assert (divergence["ruleId"], divergence["level"]) == (COMPILER_ONLY_CODE, "warning")
    assert divergence["message"]["text"] == (
        "graph result differs from PyNative in LAX: output 0 differs: graph 1.0, PyNative 2.0 [no rule predicted it]"
    )
    assert divergence["properties"] == {"entry": "D.construct"}
    assert divergence["locations"][0]["physicalLocation"]["artifactLocation"] == {
        "uri": "net.py",
        "uriBaseId": "SRCROOT",
    }


def test_github_annotations_carry_verdicts_and_compiler_only_problems(report: VerifyReport) -> None:
    lines = render("github", report).splitlines()
    assert len(lines) == 4
    assert lines[0].startswith(
        "::warning file=net.py,line=9,col=16,endLine=9,endColumn=25,title=MS101 third-party-call-in-graph::MS101 "
    )
    assert lines[0].endswith(
        f"[confirmed: compile failed in STRICT: {STOPPED}; fell back to Python in LAX: interpreted by Python]"
    )
    assert lines[1].startswith("::notice file=net.py,line=14,") and lines[1].endswith("[not reproduced]")
    assert lines[2].startswith("::notice file=net.py,line=19,")
    assert lines[2].endswith("[not verifiable: no input specs for C.construct(x)]")
    assert lines[3] == (
        "::warning file=net.py,line=24,col=1,endLine=24,endColumn=1,title=MSV compiler-only::MSV graph result "
        "differs from PyNative in LAX: output 0 differs: graph 1.0, PyNative 2.0 [no rule predicted it]"
    )


def test_an_error_confirmed_stays_an_error(report: VerifyReport) -> None:
    report.verdicts[0].diagnostic = replace(report.verdicts[0].diagnostic, severity=Severity.ERROR)
    assert render("github", report).startswith("::error file=net.py,line=9,")
    assert json.loads(render("sarif", report))["runs"][0]["results"][0]["level"] == "error"


@pytest.mark.mindspore
def test_verify_prints_github_annotations_and_sarif(write: Write, monkeypatch: pytest.MonkeyPatch, run: Run) -> None:
    path = write("net.py", "import numpy as np\nfrom mindspore import nn\n\n\n" + SPECIFIED)
    monkeypatch.chdir(path.parent)
    code, out, err = run("verify", "net.py", "--no-compare", "--format", "github")
    assert code == 0, err
    (line,) = out.splitlines()
    assert line.startswith("::warning file=net.py,line=7,col=16,")
    assert "third-party-call-in-graph::MS101 " in line and "[confirmed: compile failed in STRICT: " in line
    code, out, err = run("verify", "net.py", "--no-compare", "--format", "sarif")
    log = json.loads(out)
    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(log)
    (result,) = log["runs"][0]["results"]
    assert result["ruleId"] == "MS101" and "[confirmed: " in result["message"]["text"]
