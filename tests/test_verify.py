"""``mslint verify`` against the real MindSpore compiler: specs, config, --run, crashes and hangs."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.examples import REPO
from tests.extras import extra_requirements, quoted_requirements

DATA = REPO / "tests" / "data"
Run = Callable[..., tuple[int, str, str]]


def verdicts(report: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(Path(f["path"]).name, f["line"]): f["verdict"] for f in report["findings"]}


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the package in tests/data/verify_project, as the working folder."""
    root = tmp_path / "verify_project"
    shutil.copytree(DATA / "verify_project", root)
    monkeypatch.chdir(root)
    return root


@pytest.mark.mindspore
def test_specs_from_config_and_comments(project: Path, run: Run) -> None:
    # unsupported-syntax off: the `with` on a file it flags is then the compiler's alone
    code, out, _ = run("verify", "--all", "--format", "json", "--ignore", "unsupported-syntax")
    report = json.loads(out)
    assert verdicts(report) == {
        ("layers.py", 5): "confirmed",  # reached through a relative import, built from a comment
        ("models.py", 16): "confirmed",  # built with kwargs and inputs from [tool.mslint.verify]
        ("models.py", 21): "confirmed",  # dynamic shape of ops.unique
        ("models.py", 35): "not-verifiable",  # constructor needs arguments
        ("models.py", 40): "not-verifiable",  # no input specs
    }
    reasons = {f["line"]: f["reason"] for f in report["findings"] if f["reason"]}
    assert "constructor needs arguments" in reasons[35]
    assert "no input specs for NoSpecs.construct(x, scale)" in reasons[40] and '"shop.models:NoSpecs"' in reasons[40]
    evidence = {f["line"]: {(e["kind"], e["level"]) for e in f["evidence"]} for f in report["findings"]}
    assert evidence[16] == {("error", "strict"), ("fallback", "lax")}
    assert ("dynamic-shape", "lax") in evidence[21]
    only = [(Path(c["path"]).name, c["line"], c["kind"], c["severity"]) for c in report["compiler_only"]]
    assert only == [("models.py", 50, "error", "error")], (
        "a `with` on a file is rejected, and no rule that is on predicts it"
    )
    assert code == 1, "a compiler-only error fails the run"
    classifier = [c for c in report["compiles"] if c["name"] == "Classifier"]
    assert {c["level"] for c in classifier} == {"strict", "lax"} and all(c["status"] == "compiled" for c in classifier)
    assert not any(c["name"] == "FoldedConstant" and c["status"] != "compiled" for c in report["compiles"])


@pytest.mark.mindspore
def test_only_entries_with_findings_are_compiled_by_default(project: Path, run: Run) -> None:
    code, out, _ = run("verify", "--format", "json")
    report = json.loads(out)
    compiled = {c["name"] for c in report["compiles"]}
    assert compiled == {"Classifier", "Deduplicate", "SquashThroughHelper", "NeedsWidth", "OpensAFile"}
    assert report["compiler_only"] == []
    assert verdicts(report)[("models.py", 50)] == "confirmed", "`with` on a file: an error at every level"
    assert {f["severity"] for f in report["findings"] if f["line"] != 50} == {"warning"}
    assert code == 1, "confirmed fallbacks are warnings at the default syntax level; the `with` is an error"


@pytest.mark.mindspore
def test_strict_syntax_level_makes_confirmed_fallbacks_fail(project: Path, run: Run) -> None:
    code, out, _ = run("verify", "shop/layers.py", "shop/models.py", "--syntax-level", "strict", "--select", "MS101")
    assert code == 1
    assert "[confirmed]" in out and "Verified 4 findings: 2 confirmed, 0 not reproduced, 2 not verifiable" in out


@pytest.mark.mindspore
def test_text_report_names_the_evidence(project: Path, run: Run) -> None:
    _, out, _ = run("verify", "shop/models.py", "--select", "dynamic-shape-op")
    assert "shop/models.py:21:16: MS105 dynamic-shape-op [confirmed]" in out
    assert "    dynamic shape in LAX:" in out


@pytest.mark.mindspore
def test_not_reproduced_when_the_compiler_accepts_the_line(write: Callable[[str, str], Path], run: Run) -> None:
    # The linter cannot know `scale` is a Python float at every call site; the compiler folds it.
    path = write(
        "net.py",
        """
        import numpy as np
        from mindspore import nn


        class Scaled(nn.Cell):  # mslint: inputs=float32[2]
            def construct(self, x, scale=None):
                if scale is None:
                    return x
                return x * np.sqrt(scale)
        """,
    )
    code, out, _ = run("verify", str(path), "--format", "json")
    report = json.loads(out)
    assert [f["verdict"] for f in report["findings"]] == ["not-reproduced"]
    assert code == 0


@pytest.mark.mindspore
def test_run_captures_the_compiles_of_a_training_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    shutil.copy(DATA / "train_script" / "train.py", tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("verify", "train.py", "--run", f"{sys.executable} train.py --steps 2", "--format", "json")
    report = json.loads(out)
    assert report["run"]["returncode"] == 1, "the script's own jit function fails to compile"
    assert {c["name"] for c in report["run"]["compiled"]} == {"Net", "accuracy"}
    assert verdicts(report) == {
        ("train.py", 19): "confirmed",
        ("train.py", 24): "confirmed",  # compiled on a guess: `Unused` holds no weight
        ("train.py", 30): "confirmed",  # the `with` on a file
    }
    with_ = next(f for f in report["findings"] if f["line"] == 30)
    assert [e["kind"] for e in with_["evidence"]] == ["error"], "located by the C++ log's `In file` lines"
    assert not [c for c in report["compiler_only"] if c["kind"] == "error"], "no error off the `with` line"
    assert code == 1
    assert (tmp_path / "train.py").read_text() == (DATA / "train_script" / "train.py").read_text()


@pytest.mark.mindspore
def test_run_confirms_what_mindspore_checks_outside_compiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    shutil.copy(REPO / "rules" / "ms-op-in-data-pipeline" / "bad.py", tmp_path / "pipeline.py")
    script = "import pipeline\n\nfor row in pipeline.train_data.create_tuple_iterator():\n    pass\n"
    (tmp_path / "train.py").write_text(script)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("verify", "pipeline.py", "--run", f"{sys.executable} train.py", "--format", "json")
    report = json.loads(out)
    assert report["run"]["returncode"] == 0
    findings = report["findings"]
    assert len(findings) == 6 and all(f["verdict"] == "confirmed" for f in findings), findings
    assert all({e["kind"] for e in f["evidence"]} == {"runtime"} for f in findings)
    assert report["compiler_only"] == []
    assert code == 1, "map refusing `nn.ReLU()` is an error"


@pytest.mark.mindspore
def test_run_confirms_python_run_once_while_compiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    script = (
        "import random\nimport numpy as np\nimport mindspore as ms\nfrom mindspore import nn\n\n"
        "ms.set_context(mode=ms.GRAPH_MODE)\n\n\n"
        "class Noisy(nn.Cell):\n    def construct(self, x):\n        return x * random.random()\n\n\n"
        "print(Noisy()(ms.Tensor(np.ones((2, 2)), ms.float32)))\n"
    )
    (tmp_path / "noisy.py").write_text(script)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("verify", "noisy.py", "--run", f"{sys.executable} noisy.py", "--format", "json")
    report = json.loads(out)
    assert verdicts(report) == {("noisy.py", 11): "confirmed"}
    assert [e["kind"] for e in report["findings"][0]["evidence"]] == ["compile-time"]
    assert report["compiler_only"] == [] and code == 0


@pytest.mark.mindspore
def test_runtime_watchers_skip_an_api_this_mindspore_lacks() -> None:
    """Another MindSpore release may lack an API a watcher wraps: the compile goes on without it."""
    script = (
        "from mindspore.train import amp\n"
        "del amp.build_train_network\n"
        "from mslint.verify.runtime import watch\n"
        "watch(print, lambda path: True)\n"
        "import mindspore.dataset.engine.datasets as datasets\n"
        "print(datasets.Dataset.map.__module__)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["mslint.verify.runtime.data_pipeline"], "the other watchers are installed"


FACTORIES = """
import os
import signal
import time

import numpy as np
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.tanh(x)


def good():
    return Net(), (ms.Tensor(np.ones((2, 2)), ms.float32),)


def segfault():
    os.kill(os.getpid(), signal.SIGSEGV)


def hang():
    time.sleep(600)


def memory():
    return bytearray(1 << 50)


def wrong_shape():
    return Net()
"""


@pytest.mark.mindspore
def test_crashing_and_hanging_children_are_reported_and_the_run_goes_on(
    write: Callable[[str, str], Path], run: Run
) -> None:
    path = write("factories.py", FACTORIES)
    names = ("good", "segfault", "hang", "memory", "wrong_shape")
    examples = [arg for name in names for arg in ("--example", f"{path}:{name}")]
    code, out, _ = run("verify", str(path), "--timeout", "20", "--jobs", "4", "--format", "json", *examples)
    report = json.loads(out)
    status = {(c["name"], c["level"]): (c["status"], c["reason"]) for c in report["compiles"]}
    for level in ("strict", "lax"):
        assert status[("good", level)][0] == "compiled"
        assert status[("segfault", level)] == ("crashed", "compiler process crashed (SIGSEGV)")
        assert status[("hang", level)][0] == "timed-out"
        assert status[("memory", level)] == ("crashed", "compiler process ran out of memory (MemoryError)")
        assert status[("wrong_shape", level)][0] == "not-verifiable"
        assert "must return (cell_or_function, inputs)" in status[("wrong_shape", level)][1]
    assert verdicts(report) == {("factories.py", 12): "confirmed"}
    assert code == 0


def test_bad_requests_are_one_line_usage_errors(write: Callable[[str, str], Path], run: Run) -> None:
    path = write("net.py", "x = 1\n")
    for arguments in (
        ("--example", "missing.py:make"),
        ("--example", f"{path}"),
        ("--example", f"{path}:not-a-name"),
        ("--timeout", "0"),
        ("--jobs", "0"),
    ):
        code, out, err = run("verify", str(path), *arguments)
        assert code == 2 and out == "" and err.startswith("mslint: error: ") and err.count("\n") == 1, arguments


@pytest.mark.mindspore
def test_a_missing_device_is_one_line(write: Callable[[str, str], Path], run: Run) -> None:
    path = write("net.py", "x = 1\n")
    code, _, err = run("verify", str(path), "--device", "Ascend")
    assert code == 2
    assert err.startswith("mslint: error: device Ascend is not available to MindSpore 2.10.0 here (CPU)")


def test_without_mindspore_verify_says_what_to_install(
    write: Callable[[str, str], Path], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "mindspore" else real_find_spec(name, *a)
    )
    code, out, err = run("verify", str(write("net.py", "x = 1\n")))
    assert (code, out) == (2, "")
    assert err.startswith("mslint: error: mindspore is not installed: pip install ") and err.count("\n") == 1
    assert quoted_requirements(err) == extra_requirements("verify"), "installs what the verify extra adds"


def test_bad_verify_config_is_one_line(write: Callable[[str, str], Path], run: Run) -> None:
    write("pyproject.toml", '[tool.mslint.verify]\n"pkg:Net" = {inputs = ["float32[2"]}\n')
    code, _, err = run("check", str(write("net.py", "x = 1\n")))
    assert code == 2 and "bad input spec" in err and err.count("\n") == 1


@pytest.mark.mindspore
def test_the_parent_never_imports_mindspore_or_user_code(project: Path) -> None:
    script = (
        "import sys\n"
        "from mslint.cli import main\n"
        "code = main(['verify', 'shop/models.py', '--select', 'MS105', '--format', 'json'])\n"
        "print(code, 'mindspore' in sys.modules, any(name.startswith('shop') for name in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=project, timeout=600)
    assert result.stdout.strip().splitlines()[-1] == "0 False False"
    assert '"verdict": "confirmed"' in result.stdout, "the children did compile"


@pytest.mark.mindspore
def test_strict_applies_to_jit_functions_too(write: Callable[[str, str], Path]) -> None:
    from mslint.verify.runner import Job, run_jobs

    path = write(
        "entry.py",
        """
        import numpy as np
        import mindspore as ms
        from mindspore import Tensor


        @ms.jit
        def entry(x):
            return Tensor(np.sin(x.asnumpy()))
        """,
    )
    strict, lax = run_jobs([Job(path, "entry", level, "float32[2,3]") for level in ("strict", "lax")], 120, 2, None)
    assert [p.kind for p in strict.problems] == ["error"], "a @jit function ignores set_context's level"
    assert "JIT strict mode" in strict.problems[0].message
    assert [p.kind for p in lax.problems] == ["fallback"]


_BUILD_RAISES = """\
import numpy as np
import mindspore as ms
from mindspore import nn


def conv3x3(cin, cout):
    return nn.Conv2d(cin, cout, 3, padding=1)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = conv3x3(3, 8)

    def construct(self, x):
        return self.conv(x)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    print(Net()(ms.Tensor(np.ones((1, 3, 8, 8), np.float32))).shape)
"""
"""A training script that dies building its Cell, on the line conv-padding-without-pad-mode flags
(the helper outside every graph entry)."""


@pytest.mark.mindspore
def test_a_run_that_stops_on_a_findings_line_confirms_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    (tmp_path / "net.py").write_text(_BUILD_RAISES)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("verify", "net.py", "--run", f"{sys.executable} net.py", "--format", "json")
    report = json.loads(out)
    assert report["run"]["returncode"] == 1
    assert verdicts(report) == {("net.py", 7): "confirmed"}
    (evidence,) = report["findings"][0]["evidence"]
    assert evidence["kind"] == "stopped" and evidence["message"].startswith("ValueError: For 'Conv2D', the 'pad'")
    assert [(Path(at["path"]).name, at["line"]) for at in evidence["locations"]] == [("net.py", 7)]
    assert report["compiler_only"] == [] and code == 1, "a confirmed error fails the run"


@pytest.mark.mindspore
def test_a_run_that_stops_elsewhere_confirms_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run) -> None:
    """A crash on a line no rule flags (a data file missing) is no compiler's problem."""
    script = _BUILD_RAISES.replace("    ms.set_context", "    open('missing.csv')\n    ms.set_context")
    (tmp_path / "net.py").write_text(script)
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("verify", "net.py", "--run", f"{sys.executable} net.py")
    assert "[not verifiable]" in out and code == 0
    assert "your --run command neither compiled nor stopped on its line" in out, "no advice to use --run"
    assert "0 compiler-only problems" in out


def test_the_exception_that_ended_a_run_is_where_the_users_code_stopped(tmp_path: Path) -> None:
    from mslint.verify.capture import capture_run

    (tmp_path / "helper.py").write_text("def load(name):\n    return open(name)\n")
    (tmp_path / "main.py").write_text("import helper\n\n\nhelper.load('missing.csv')\n")
    failed = capture_run(f"cd {tmp_path} && {sys.executable} main.py", 60)
    assert failed.returncode == 1 and failed.ended is not None
    assert failed.ended.kind == "stopped" and failed.ended.message.startswith("FileNotFoundError: ")
    assert failed.ended.locations == ((str(tmp_path / "helper.py"), 2),), "the innermost line of the user's"
    (tmp_path / "caught.py").write_text("try:\n    open('missing.csv')\nexcept OSError:\n    import traceback\n")
    assert capture_run(f"cd {tmp_path} && {sys.executable} caught.py", 60).ended is None, "exit 0: nothing ended it"


@pytest.mark.mindspore
def test_fail_on_unverified(write: Callable[[str, str], Path], run: Run) -> None:
    """A finding no compile could check passes CI only without --fail-on-unverified."""
    path = write(
        "net.py",
        "import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n"
        "    def __init__(self, n):\n        super().__init__()\n        self.n = n\n\n"
        "    def construct(self, x):\n        return np.maximum(x, 0)\n",
    )
    code, out, _ = run("verify", str(path))
    assert "0 confirmed, 0 not reproduced, 1 not verifiable" in out and code == 0
    code, _, err = run("verify", str(path), "--fail-on-unverified")
    assert code == 1 and err == "mslint: 1 finding could not be verified (--fail-on-unverified)\n"
    write("pyproject.toml", '[tool.mslint]\nfail-on = "error"\n')  # the warning no longer counts
    assert run("verify", str(path), "--fail-on-unverified")[0] == 0


@pytest.mark.mindspore
def test_verify_reads_one_analysis(
    write: Callable[[str, str], Path], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """verify takes the graph code from the analysis that found the findings: it does not search
    for it again (where a Cell run only in PyNative mode would be graph code again)."""
    from mslint.model import scope

    searches = []
    search = scope._sub_cell_constructs  # called once by each search for the graph code
    monkeypatch.setattr(scope, "_sub_cell_constructs", lambda *args: searches.append(1) or search(*args))
    path = write(
        "net.py", "from mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        return x\n"
    )
    code, out, _ = run("verify", str(path))
    assert code == 0 and "0 confirmed" in out
    assert len(searches) == 1
