"""Graph mode compared with PyNative: silent hazards found by running both modes on the same inputs."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import ANY

import pytest

from mslint.verify.sources import Write, writes
from tests.compiler import VERIFY_TIMEOUT_S
from tests.examples import REPO

DATA = REPO / "tests" / "data" / "divergence"
Run = Callable[..., tuple[int, str, str]]


# Under pytest -n, every test here in one worker: the module fixture below (a verify run, made with
# MindSpore) would be made again in each worker that runs a test of the module.
pytestmark = pytest.mark.xdist_group("test_divergence")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """``mslint verify --all`` of tests/data/divergence, in a copy as the working folder, run
    once for the module's tests."""
    folder = tmp_path_factory.mktemp("divergence") / "divergence"
    shutil.copytree(DATA, folder)
    command = [sys.executable, "-m", "mslint", "verify", "hazards.py", "agree.py", "--all", "--format", "json"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=VERIFY_TIMEOUT_S, cwd=folder)
    assert result.returncode == 0, f"divergences are warnings: {result.stderr[-2000:]}"
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def comparisons(report: dict[str, Any]) -> dict[str, dict[str, Any] | None]:
    """The comparison of each entry, from its LAX compile (STRICT compiles compare nothing)."""
    assert all(c["comparison"] is None for c in report["compiles"] if c["level"] == "strict")
    return {c["name"]: c["comparison"] for c in report["compiles"] if c["level"] == "lax"}


def divergences(report: dict[str, Any]) -> dict[int, str]:
    """Line -> message of each divergence, whether it confirms a finding or is compiler-only."""
    found = {c["line"]: c["message"] for c in report["compiler_only"] if c["kind"] == "divergence"}
    for finding in report["findings"]:
        found.update((finding["line"], e["message"]) for e in finding["evidence"] if e["kind"] == "divergence")
    return found


@pytest.mark.mindspore
def test_state_graph_mode_drops_confirms_the_findings_on_it(report: dict[str, Any]) -> None:
    findings = {(f["path"], f["line"]): f for f in report["findings"]}
    messages = divergences(report)
    for line in (13, 23, 33):
        finding = findings[("hazards.py", line)]
        assert finding["symbol"] == "python-side-effect-in-graph" and finding["verdict"] == "confirmed"
        assert "divergence" in {e["kind"] for e in finding["evidence"]}
    assert messages[13] == "graph mode keeps global hazards.calls at 0 after 2 calls; PyNative has 2"
    assert messages[23] == "graph mode keeps self.seen at [] after 2 calls; PyNative has [1, 1]"
    assert messages[33] == "graph mode keeps self.stats at {'calls': 1} after 2 calls; PyNative has {'calls': 2}"
    assert report["compiler_only"] == []


@pytest.mark.mindspore
def test_a_divergence_no_finding_explains_is_compiler_only(tmp_path: Path) -> None:
    shutil.copy(DATA / "hazards.py", tmp_path / "hazards.py")
    command = [sys.executable, "-m", "mslint", "verify", "hazards.py", "--all", "--format", "json"]
    command += ["--ignore", "python-side-effect-in-graph"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=VERIFY_TIMEOUT_S, cwd=tmp_path)
    assert result.returncode == 0, f"divergences are warnings: {result.stderr[-2000:]}"
    only = {(c["line"], c["kind"]): c for c in json.loads(result.stdout)["compiler_only"]}
    counter = only[(13, "divergence")]
    assert counter["severity"] == "warning" and counter["entry"] == "GlobalCounter.construct"
    assert counter["message"] == "graph mode keeps global hazards.calls at 0 after 2 calls; PyNative has 2"
    assert {line for line, kind in only if kind == "divergence"} == {13, 23, 33, 39}


@pytest.mark.mindspore
def test_a_divergence_on_a_flagged_line_confirms_the_finding(report: dict[str, Any]) -> None:
    findings = {(f["line"], f["symbol"]): f for f in report["findings"]}
    frozen = findings[(39, "python-side-effect-in-graph")]
    assert frozen["verdict"] == "confirmed"
    assert {e["kind"] for e in frozen["evidence"]} == {"compile-time", "divergence"}
    assert [e["level"] for e in frozen["evidence"] if e["kind"] == "divergence"] == ["lax"]
    built = findings[(44, "cell-created-in-graph")]
    assert built["verdict"] == "confirmed"
    assert "divergence" in {e["kind"] for e in built["evidence"]}
    assert (
        divergences(report)[44].startswith("graph mode returns [[")
        and "on call 2; PyNative returns [[" in (divergences(report)[44])
    )


@pytest.mark.mindspore
def test_agreeing_and_random_entries_show_no_divergence(report: dict[str, Any]) -> None:
    assert set(divergences(report)) == {13, 23, 33, 39, 44}, "nothing in agree.py"
    assert comparisons(report)["FrozenOnPurpose"] == {"status": "compared", "reason": None, "seconds": ANY}
    assert not [c for c in report["compiler_only"] if c["line"] == 49], "the suppression comment accepts the hazard"
    compared = comparisons(report)
    assert compared["Clean"] is not None and compared["Clean"]["status"] == "compared"
    assert compared["WithDropout"] is not None and compared["WithDropout"]["status"] == "compared", "eval mode"
    random_ops = compared["RandomOperators"]
    assert random_ops is not None and random_ops["status"] == "not-comparable"
    assert random_ops["reason"].startswith("two PyNative runs disagree on the output")
    by_mode = compared["ReadsTheMode"]
    assert by_mode is not None and by_mode["status"] == "not-comparable"
    assert by_mode["reason"] == "the instances differ on self.graph_mode before any call"
    assert all(c is not None and c["seconds"] > 0 for c in compared.values())


COUNTER = """
from mindspore import nn

calls = 0


class GlobalCounter(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        global calls
        calls += 1
        return nn.Dense(4, 3)(x)
"""


@pytest.mark.mindspore
def test_text_report_names_the_divergence(write: Callable[[str, str], Path], run: Run) -> None:
    path = write("counter.py", COUNTER)
    code, out, _ = run("verify", str(path))
    assert code == 0
    assert f"{path.name}:10:16: MS113 cell-created-in-graph [confirmed]" in out
    assert "    graph result differs from PyNative in LAX: graph mode returns [[" in out
    assert f"{path.name}:9:9: MS109 python-side-effect-in-graph [confirmed]" in out
    assert "    graph result differs from PyNative in LAX: graph mode keeps global counter.calls at 0" in out
    assert " Graph mode compared with PyNative on 1 of 1 entry. Took " in out


@pytest.mark.mindspore
def test_no_compare_runs_nothing(write: Callable[[str, str], Path], run: Run) -> None:
    path = write("counter.py", COUNTER)
    code, out, _ = run("verify", str(path), "--no-compare", "--format", "json")
    report = json.loads(out)
    assert [c["comparison"] for c in report["compiles"]] == [None, None]
    assert report["compiler_only"] == [] and code == 0


@pytest.mark.mindspore
def test_jobs_that_ask_for_it_get_divergence_problems() -> None:
    """The contract of run_jobs for other scripts: ``Job(..., compare=True)``."""
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    hazards = DATA / "hazards.py"
    jobs = [Job(hazards, "AppendsToSelf", "lax", "float32[2,4]", compare=compare) for compare in (True, False)]
    compared, plain = run_jobs(jobs, 120, 2, None)
    assert compared.status == plain.status == COMPILED
    assert compared.comparison is not None and compared.comparison["status"] == "compared"
    assert [(p.kind, p.level, p.locations) for p in compared.problems] == [
        ("divergence", "lax", ((str(hazards.resolve()), 23),))
    ]
    assert plain.comparison is None and plain.problems == []


@pytest.mark.mindspore
def test_dynamic_dimensions_are_not_run(write: Callable[[str, str], Path]) -> None:
    from mslint.verify.runner import Job, run_jobs

    path = write("dynamic.py", (DATA / "hazards.py").read_text())
    (outcome,) = run_jobs([Job(path, "AppendsToSelf", "lax", "float32[N,4]", compare=True)], 120, 1, None)
    assert outcome.comparison is not None
    assert (outcome.comparison["status"], outcome.problems) == ("not-run", [])
    assert "dynamic dimensions" in outcome.comparison["reason"]


def test_writes_name_what_each_statement_changes() -> None:
    source = """
def construct(self, x):
    global calls
    calls += 1
    self.count = 1
    self.items.append(x)
    self.stats["n"] += 1
    state.total = 2
    a, self.last = x, x
    del self.cache[0]
    local = []
    local.append(x)
    self.helper(x)
"""
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert writes(function) == [
        Write("calls", None, 4, rebinds_root=True),
        Write("self", "count", 5, rebinds_root=False),
        Write("self", "items", 6, rebinds_root=False),
        Write("self", "stats", 7, rebinds_root=False),
        Write("state", "total", 8, rebinds_root=False),
        Write("a", None, 9, rebinds_root=True),
        Write("self", "last", 9, rebinds_root=False),
        Write("self", "cache", 10, rebinds_root=False),
        Write("local", None, 11, rebinds_root=True),
        Write("local", None, 12, rebinds_root=False),
    ]


@pytest.mark.mindspore
def test_a_comparison_that_kills_its_process_keeps_the_compile(write: Callable[[str, str], Path]) -> None:
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "dies.py",
        """
        import os
        import signal

        import numpy as np
        import mindspore as ms
        from mindspore import nn

        built = []


        class Net(nn.Cell):
            def construct(self, x):
                return nn.Dense(4, 3)(x)


        def make():
            built.append(1)
            if len(built) > 1:  # the comparison's fresh instance
                os.kill(os.getpid(), signal.SIGKILL)
            return Net(), (ms.Tensor(np.ones((2, 4)), ms.float32),)
        """,
    )
    (outcome,) = run_jobs([Job(path, "make", "lax", factory=True, compare=True)], 120, 1, None)
    assert outcome.status == COMPILED
    assert {p.kind for p in outcome.problems} == {"untracked-parameters"}, "the compile's evidence is kept"
    killed = "the comparison stopped: compiler process was killed (SIGKILL), most likely for running out of memory"
    assert outcome.comparison == {"status": "not-comparable", "reason": killed, "seconds": None}


@pytest.mark.mindspore
def test_cells_a_jit_function_reaches_through_globals_are_watched(write: Callable[[str, str], Path]) -> None:
    """``grad = ms.value_and_grad(Net())`` called by a ``@jit`` function: Net's state is compared too."""
    from mslint.verify.runner import Job, run_jobs

    path = write(
        "through_grad.py",
        """
        import numpy as np
        import mindspore as ms
        from mindspore import nn


        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.seen = []

            def construct(self, x):
                self.seen.append(1)
                return x * 2


        def make():
            global grad
            grad = ms.value_and_grad(Net())
            return ms.jit(step), (ms.Tensor(np.ones((2, 3)), ms.float32),)


        def step(x):
            return grad(x)
        """,
    )
    (outcome,) = run_jobs([Job(path, "make", "lax", factory=True, compare=True)], 120, 1, None)
    assert [(p.kind, p.message, p.locations) for p in outcome.problems] == [
        ("divergence", "graph mode keeps Net.seen at [] after 2 calls; PyNative has [1, 1]", ((str(path), 12),))
    ]


def test_a_run_that_raises_is_named_by_the_line_that_says_what_failed() -> None:
    from mslint.verify.divergence import _one_line

    rule = "-" * 52
    message = f"{rule}\n- Kernel select failed:\n{rule}\nUnsupported op [Format] on CPU, supported: NCHW\n"
    assert _one_line(RuntimeError(message)) == "RuntimeError: Unsupported op [Format] on CPU, supported: NCHW"


@pytest.mark.mindspore
def test_a_jit_helper_runs_as_python_in_pynative(write: Callable[[str, str], Path]) -> None:
    """A ``@jit`` function compiles even in PyNative; the reference run is the Python program, so
    the global counter it loses in graph mode shows."""
    from mslint.verify.runner import Job, run_jobs

    path = write(
        "jit_helper.py",
        """
        import mindspore as ms
        from mindspore import nn

        calls = 0


        @ms.jit
        def count(x):
            global calls
            calls += 1
            return x * 2


        class Net(nn.Cell):  # mslint: inputs=float32[2,4]
            def construct(self, x):
                return count(x)
        """,
    )
    (outcome,) = run_jobs([Job(path, "Net", "lax", "float32[2,4]", compare=True)], 120, 1, None)
    message = "graph mode keeps global jit_helper.calls at 0 after 2 calls; PyNative has 2"
    assert [(p.kind, p.message, p.locations) for p in outcome.problems] == [("divergence", message, ((str(path), 10),))]


@pytest.mark.mindspore
def test_pynative_runs_a_second_time_only_where_the_modes_differ(write: Callable[[str, str], Path]) -> None:
    """Each build is an instance: the compile's, graph mode's, PyNative's, and a second PyNative
    one (another MindSpore seed) only where graph mode gave something else."""
    from mslint.verify.runner import Job, run_jobs

    path = write(
        "builds.py",
        """
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn

        calls = 0


        class Agrees(nn.Cell):
            def construct(self, x):
                return x * 2


        class Counts(nn.Cell):
            def construct(self, x):
                global calls
                calls += 1
                return x * 2


        def built(net):
            with Path(__file__).with_name(type(net).__name__ + ".builds").open("a") as log:
                log.write("x")
            return net, (ms.Tensor(np.ones((2, 4)), ms.float32),)


        def agrees():
            return built(Agrees())


        def counts():
            return built(Counts())
        """,
    )
    jobs = [Job(path, name, "lax", factory=True, compare=True) for name in ("agrees", "counts")]
    agreeing, differing = run_jobs(jobs, 120, 1, None)
    assert agreeing.comparison is not None and agreeing.comparison["status"] == "compared"
    assert not agreeing.problems
    assert differing.comparison is not None and differing.comparison["status"] == "compared"
    assert [p.kind for p in differing.problems] == ["divergence"]
    assert path.with_name("Agrees.builds").read_text() == "xxx"
    assert path.with_name("Counts.builds").read_text() == "xxxx"


@pytest.mark.mindspore
def test_a_changed_input_and_a_changed_second_result_are_divergences_at_the_line(
    write: Callable[[str, str], Path],
) -> None:
    """Two calls with the same input objects: graph mode writes ``x += 1`` into the caller's
    tensor, and a tensor ``construct`` makes from a constant keeps its value from one call to the
    next; rebinding agrees with PyNative."""
    from mslint.verify.runner import Job, run_jobs

    path = write(
        "inplace.py",
        """
        import numpy as np
        import mindspore as ms
        from mindspore import nn, Tensor


        class WritesItsInput(nn.Cell):
            def construct(self, x):
                x += 1
                return x


        class KeepsItsCounter(nn.Cell):
            def construct(self, x):
                i = Tensor(1, ms.int32)
                while i < 3:
                    x = x * 2
                    i += 1
                return x


        class Rebinds(nn.Cell):
            def construct(self, x):
                x = x + 1
                return x


        def given(net):
            return net, (Tensor(np.array([3], np.float32)),)


        def writes():
            return given(WritesItsInput())


        def keeps():
            return given(KeepsItsCounter())


        def rebinds():
            return given(Rebinds())
        """,
    )
    jobs = [Job(path, name, "lax", factory=True, compare=True) for name in ("writes", "keeps", "rebinds")]
    writes, keeps, rebinds = run_jobs(jobs, 120, 2, None)
    here = str(path.resolve())
    assert {(p.message, p.locations) for p in writes.problems} == {
        ("graph mode returns [5.] on call 2; PyNative returns [4.]", ((here, 8),)),
        ("graph mode writes into the caller's input x: [5.] after 2 calls; PyNative leaves [3.]", ((here, 8),)),
    }
    assert [(p.message, p.locations) for p in keeps.problems] == [
        ("graph mode returns [6.] on call 2; PyNative returns [12.]", ((here, 17),))
    ]
    assert rebinds.comparison is not None and rebinds.comparison["status"] == "compared"
    assert rebinds.problems == []
