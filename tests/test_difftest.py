"""The differential tester (scripts/difftest.py): its programs, its judging, and a fixed-seed run
against the real compiler that fails on any disagreement outside the known limits."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mslint.verify.compiler_output import COMPILE_TIME, ERROR, FALLBACK, Problem
from mslint.verify.runner import LEVELS, Job, Outcome
from mslint.verify.statuses import COMPILED
from tests.examples import REPO

sys.path.insert(0, str(REPO / "scripts"))

import difftest
from graph_syntax.compose import Placement, compose, random_program
from graph_syntax.forms import HAZARD, Form

SUITE_SEED, SUITE_PROGRAMS = 1, 100
LONG_SEED, LONG_PROGRAMS = 2000, 2000

NUMPY = Form("t.numpy", "t", "y = Tensor(np.sin(x.asnumpy()))")
RANDOM = Form("t.random", "t", "y = x * random.random()", module="import random")
CONSTANT = Form("t.constant", "t", "y = x * math.sqrt(4.0)", module="import math")
RELU = Form("t.relu", "t", "y = ops.relu(x)")
NONE_JOIN = Form("t.none-join", "t", f"z = None\nif x.sum() > 0:  {HAZARD}\n    z = x\ny = x if z is None else z")
JOIN_FAILED = "TypeError: Cannot join the return values of different branches, perhaps you need to make them equal."


def test_composed_programs_are_python_and_their_hazard_lines_are_the_forms() -> None:
    rng = random.Random(7)
    for index in range(200):
        package = random_program(f"p{index}", difftest.forms(), rng)
        for name, text in package.files.items():
            compile(text, name, "exec")
        for site in package.sites:
            file, line = site.hazard
            body = [text.strip() for text in site.form.body.splitlines() if text.strip()]
            marked = next((text for text in body if text.endswith(HAZARD)), body[0])
            assert package.files[file].splitlines()[line - 1].strip() == marked, (package.name, site.position)


def test_a_form_in_a_subcell_of_the_helper_module_is_reached_from_the_cell() -> None:
    package = compose("p", "cell", [Placement(NUMPY, ("method", "subcell"), "branch")])
    net, helpers = package.files["net.py"], package.files["helpers.py"]
    assert "from .helpers import Sub0_1" in net  # built in the __init__ of the method's host, Net
    assert "self.sub0_1 = Sub0_1()" in net and "class Sub0_1(nn.Cell):" in helpers
    assert package.sites[0].hazard[0] == "helpers.py"
    assert package.sites[0].position == "cell:method>subcell/branch"


Evidence = tuple[str, int, str]
"""A compiler problem on a line of net.py: kind, line, level."""


COMPARED = {"status": "compared", "reason": None, "seconds": 0.1}
NOT_COMPARABLE = {"status": "not-comparable", "reason": "two PyNative runs disagree on the output", "seconds": 0.1}


def _judge(
    tree: Path, forms: list[Form], evidence: list[Evidence], flagged: list[int], comparison: dict[str, Any] = COMPARED
) -> list[str]:
    """Verdicts for ``forms`` inlined in a Cell, given compiler problems, mslint's findings on
    lines of net.py and the comparison with PyNative."""
    package = compose("p", "cell", [Placement(form, ()) for form in forms])
    difftest.write_tree(tree, [package])
    net = str(tree / "p" / "net.py")
    outcomes = [
        Outcome(
            Job(tree / "p" / "net.py", "make", level, factory=True, compare=True),
            COMPILED,
            problems=[Problem(kind, "m", ((net, line),), level) for kind, line, at in evidence if at == level],
            comparison=comparison,
        )
        for level in ("strict", "lax")
    ]
    findings = [{"path": "p/net.py", "line": n, "symbol": "s", "severity": "warning"} for n in flagged]
    judged, _, _ = difftest.judge(tree, package, *outcomes, findings)
    return [j.verdict for j in judged]


def _hazard_lines(forms: list[Form]) -> list[int]:
    return [site.hazard[1] for site in compose("p", "cell", [Placement(f, ()) for f in forms]).sites]


def test_evidence_on_an_unflagged_line_is_a_miss_and_on_a_flagged_one_agreement(tmp_path: Path) -> None:
    numpy_line, _ = _hazard_lines([NUMPY, RELU])
    evidence = [(ERROR, numpy_line, "strict"), (FALLBACK, numpy_line, "lax")]
    assert _judge(tmp_path / "a", [NUMPY, RELU], evidence, []) == ["miss", "agree"]
    assert _judge(tmp_path / "b", [NUMPY, RELU], evidence, [numpy_line]) == ["agree", "agree"]


def test_a_finding_that_spans_the_hazard_line_and_predicts_its_problem_answers_for_the_site(tmp_path: Path) -> None:
    """branch-shape-mismatch stands on `z = None` (where LAX interprets) and spans the `if` (where STRICT
    fails to join): STRICT's error on the `if`, its branch and the join is that finding's, as verify
    confirms it; a finding that does not span the `if`, or whose rule does not predict the error, is not."""
    package = compose("p", "cell", [Placement(NONE_JOIN, ())])
    difftest.write_tree(tmp_path, [package])
    net = str(tmp_path / "p" / "net.py")
    (site,) = package.sites
    at_if = site.hazard[1]
    join = Problem(ERROR, JOIN_FAILED, ((net, at_if + 1), (net, at_if), (net, at_if + 2)), "strict")
    outcomes = [Outcome(Job(Path(net), "make", level, factory=True), COMPILED, problems=[join]) for level in LEVELS]

    def verdict(symbol: str, end_line: int) -> str:
        finding = {"path": "p/net.py", "line": at_if - 1, "end_line": end_line, "symbol": symbol, "severity": "warning"}
        (judged,), _, _ = difftest.judge(tmp_path, package, *outcomes, [finding])
        return judged.verdict

    assert verdict("branch-shape-mismatch", at_if + 1) == "agree"
    assert verdict("branch-shape-mismatch", at_if - 1) == "miss", "a finding on the `z = None` line alone"
    assert verdict("missing-super-init", at_if + 1) == "miss", "a rule that does not predict the failed join"


def test_a_finding_in_a_clean_program_is_a_false_alarm(tmp_path: Path) -> None:
    (relu_line,) = _hazard_lines([RELU])
    assert _judge(tmp_path / "a", [RELU], [], [relu_line]) == ["false-alarm"]
    assert _judge(tmp_path / "b", [RELU], [], []) == ["agree"]


def test_a_finding_in_a_program_graph_mode_was_not_compared_on_is_not_judged(tmp_path: Path) -> None:
    """A program that compiles but whose comparison with PyNative was not made (another form's
    counter makes two PyNative runs disagree) shows no divergence only because none was looked
    for: its forms are compared each on its own, and a site without evidence there is hidden."""
    (relu_line,) = _hazard_lines([RELU])
    assert _judge(tmp_path / "a", [RELU], [], [relu_line], NOT_COMPARABLE) == ["hidden"]
    assert _judge(tmp_path / "b", [RELU], [(ERROR, relu_line, "strict")], [], NOT_COMPARABLE) == ["miss"]
    job = Job(tmp_path / "p" / "net.py", "make", "strict", factory=True, compare=True)
    assert difftest._judged_alone(Outcome(job, COMPILED, comparison=NOT_COMPARABLE))
    assert not difftest._judged_alone(Outcome(job, COMPILED, comparison=COMPARED))


def test_sites_after_a_lax_error_are_hidden(tmp_path: Path) -> None:
    numpy_line, _ = _hazard_lines([NUMPY, RELU])
    evidence = [(ERROR, numpy_line, "strict"), (ERROR, numpy_line, "lax")]
    assert _judge(tmp_path, [NUMPY, RELU], evidence, [numpy_line]) == ["agree", "hidden"]


def test_a_frozen_value_is_evidence_only_where_it_must_be_taken_per_call(tmp_path: Path) -> None:
    random_line, constant_line = _hazard_lines([RANDOM, CONSTANT])
    frozen = [(COMPILE_TIME, line, "lax") for line in (random_line, constant_line)]
    assert _judge(tmp_path, [RANDOM, CONSTANT], frozen, []) == ["miss", "agree"]


def test_lax_is_compiled_for_the_forms_only_lax_shows() -> None:
    lax_only = difftest.lax_only_forms()
    assert {"format.fstring/tensor", "expr.Lambda/local", "state.global-int.augassign"} <= lax_only
    assert not {"builtin.abs/constant", "numpy.call/tensor", "stmt.Try/except"} & lax_only


@pytest.mark.mindspore
def test_lax_is_compiled_where_mslint_reports_what_strict_did_not_show(tmp_path: Path) -> None:
    packages = [compose(name, "cell", [Placement(RELU, ())]) for name in ("flagged", "plain")]
    difftest.write_tree(tmp_path, packages)
    (flagged, plain), compiles = difftest.compile_all(tmp_path, packages, 2, 120, ["flagged"])
    assert [o.job.level for o in flagged] == ["strict", "lax"] and compiles == 3
    assert [o.job.level for o in plain] == ["strict", "strict"], "STRICT's outcome stands for both"


def test_a_known_limit_is_one_form_at_one_position() -> None:
    known = difftest.Known("miss", "format.fstring/tensor", "cell:method/loop", 1, "p00003", "why")
    assert known.covers("miss", "format.fstring/tensor", "cell:method/loop")
    assert not known.covers("false-alarm", "format.fstring/tensor", "cell:method/loop")
    assert not known.covers("miss", "format.fstring/tensor", "cell:method")
    assert not known.covers("miss", "format.fstring/list", "cell:method/loop")


def _known_file(tmp_path: Path, **changed: object) -> Path:
    entry = {"kind": "miss", "form": "format.fstring/tensor", "position": "cell:method/loop"}
    entry.update({"reproduction": {"seed": 1, "program": "p00003"}, "reason": "why", **changed})
    path = tmp_path / "known.json"
    path.write_text(json.dumps([{k: v for k, v in entry.items() if v is not None}]))
    return path


def test_a_known_limit_with_a_wildcard_or_without_its_reproduction_is_refused(tmp_path: Path) -> None:
    assert difftest.load_known(_known_file(tmp_path))[0].program == "p00003"
    for changed in ({"form": "format.*"}, {"position": "*"}, {"position": "cell:method/[bl]*"}, {"reproduction": None}):
        with pytest.raises(SystemExit):
            difftest.load_known(_known_file(tmp_path, **changed))


def test_a_known_limit_its_program_no_longer_shows_is_reported(tmp_path: Path) -> None:
    """An entry whose program this run compiled, and whose class the run did not show there, is
    fixed or moved: the list must say so (difftest exits 1)."""
    (known,) = difftest.load_known(_known_file(tmp_path))
    package = compose("p00003", "cell", [Placement(NUMPY, ())])
    shown = difftest.Judgement(package, package.sites[0], verdict="miss")
    group = {"kind": "miss", "form": "format.fstring/tensor", "position": "cell:method/loop", "judgements": [shown]}
    assert difftest.unmatched([known], [group], seed=1, programs=10) == []
    elsewhere = {**group, "judgements": [difftest.Judgement(compose("p00004", "cell", []), shown.site)]}
    gone = ["miss format.fstring/tensor at cell:method/loop (seed 1, p00003)"]
    assert difftest.unmatched([known], [elsewhere], seed=1, programs=10) == gone
    assert difftest.unmatched([known], [], seed=1, programs=10) == gone
    assert difftest.unmatched([known], [], seed=1, programs=3) == [], "p00003 was not compiled"
    assert difftest.unmatched([known], [], seed=7, programs=10) == [], "another seed's programs"


def test_every_known_limit_is_reproduced_by_the_suite_run_or_the_long_run() -> None:
    """The fixed-seed run below compiles each seed-1 program, the long run of docs/difftest.md
    (``--seed 2000 --programs 2000``, too long for the suite) each seed-2000 one: an entry its run
    no longer shows fails that run."""
    known = difftest.load_known(difftest.KNOWN)
    runs = {SUITE_SEED: SUITE_PROGRAMS, LONG_SEED: LONG_PROGRAMS}
    ran = {seed: {f"p{index:05d}" for index in range(programs)} for seed, programs in runs.items()}
    assert known and all(k.seed in ran and k.program in ran[k.seed] for k in known)
    assert any(k.seed == SUITE_SEED for k in known)
    assert all(k.reason for k in known)


@pytest.mark.mindspore
@pytest.mark.measurement
def test_fixed_seed_run_has_no_disagreement_outside_the_known_limits(tmp_path: Path) -> None:
    command = [sys.executable, str(REPO / "scripts" / "difftest.py"), "--seed", str(SUITE_SEED)]
    command += ["--programs", str(SUITE_PROGRAMS), "--json", "--out", str(tmp_path / "classes")]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=1200)
    assert done.returncode in (0, 1), done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["programs"] == SUITE_PROGRAMS and report["compiles"] >= SUITE_PROGRAMS
    assert report["with_evidence"] > 0 and report["judged"] > report["hidden"], "the run compared nothing"
    new = [
        (c["kind"], c["form"], c["position"], c["evidence"], c["mslint"]) for c in report["classes"] if not c["known"]
    ]
    assert new == [], f"disagreements outside benchmarks/difftest_known.json (reproductions: {tmp_path / 'classes'})"
    assert report["unmatched_known"] == [], "listed in benchmarks/difftest_known.json and no longer shown"
    assert done.returncode == 0
