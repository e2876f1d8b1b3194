"""unsupported-kernel: calls of APIs the CPU has no kernel for, flagged on target cpu only; the
kernel message read as its own stage by verify, and predicted by the rule whatever the kernel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mslint.compiler_messages import message_table, missing_kernel
from mslint.engine import check_files
from mslint.release import Release
from mslint.settings import Settings
from tests.compiler import verify_example
from tests.examples import REPO, RULES_DIR

SOURCE = """\
from mindspore import mint, nn, ops


class Net(nn.Cell):
    def construct(self, x):
        a = mint.argmin(x)
        b = x.repeat((3, 2))
        c = x.repeat(3, 2)
        d = x.chunk(2, dim=1)
        return a, b, c, d, x.chunk(1), ops.argmin(x), x.abs()
"""


def findings(tmp_path: Path, target: str) -> list[tuple[int, str]]:
    path = tmp_path / "net.py"
    path.write_text(SOURCE)
    report = check_files([path], Settings(target=target, select=("unsupported-kernel",)))
    return sorted((d.line, str(d.severity)) for d in report.diagnostics)


def test_calls_without_a_cpu_kernel_are_flagged_on_target_cpu_only(tmp_path: Path) -> None:
    assert findings(tmp_path, "ascend") == []
    assert findings(tmp_path, "gpu") == []
    # the measured forms are errors (x.chunk(2, dim=1): the tensor-signature table's); x.repeat(3, 2)
    # passes two arguments where x.repeat((3, 2)) and x.repeat(2) were measured; x.chunk(1) runs
    assert findings(tmp_path, "cpu") == [(6, "error"), (7, "error"), (8, "warning"), (9, "error")]


def test_the_message_names_the_kernel_and_the_measured_call(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text(SOURCE)
    report = check_files([path], Settings(target="cpu", select=("unsupported-kernel",)))
    first = min(report.diagnostics, key=lambda d: d.line)
    assert first.message.startswith("`mint.argmin` called as `mint.argmin(x)` has no CPU kernel in MindSpore 2.10.0")
    assert "Unsupported op [ArgMinExt] on CPU" in first.message


def test_kernels_are_read_from_the_release_s_own_tables() -> None:
    assert Release("2.10.0").missing_cpu_kernels["mint.argmin"]["kernel"] == "ArgMinExt"
    assert ("x.chunk(2, dim=1)", "Chunk") in Release("2.10.0").missing_cpu_kernel_calls["chunk"]
    assert Release("2.9.0").missing_cpu_kernels == {}  # not measured: kernels come and go between releases
    assert Release("2.9.0").missing_cpu_kernel_calls == {}


@pytest.mark.parametrize(
    ("message", "kernel"),
    [
        ("RuntimeError: Unsupported op [ArgMinExt] on CPU, Please confirm whether the device ...", "ArgMinExt"),
        ("The kernel RepeatInterleaveInt unregistered.", "RepeatInterleaveInt"),
        ("For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got 3 and 2.", None),
    ],
)
def test_missing_kernel_reads_the_kernel_a_message_names(message: str, kernel: str | None) -> None:
    assert missing_kernel(message) == kernel


def test_a_kernel_no_example_measured_is_predicted_by_the_rule() -> None:
    message = (
        "RuntimeError: Unsupported op [NoExampleUsesThis] on CPU, Please confirm whether the device target setting "
        "is correct, or refer to 'mindspore.ops' at https://www.mindspore.cn to query the operator support list."
    )
    rules, measured = message_table().rules_for("error", message)
    assert measured and "unsupported-kernel" in rules


@pytest.mark.mindspore
@pytest.mark.xdist_group("example-compiles")
def test_verify_counts_a_compile_stopped_by_a_missing_kernel_apart() -> None:
    report = verify_example(RULES_DIR / "unsupported-kernel" / "bad.py")
    assert report["compiles"] and {c["stopped"] for c in report["compiles"]} == {"kernel"}, report["compiles"]
    assert {f["verdict"] for f in report["findings"]} == {"confirmed"}, report["findings"]


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_sample_of_the_kernel_table_measures_as_shipped() -> None:
    """The APIs the table lists as missing on CPU, and one in ten of the others (the whole table,
    1502 APIs, takes 7 to 10 minutes from an empty cache): each is missing exactly where the
    shipped table says, with its kernel and call."""
    script = REPO / "scripts" / "generate_kernel_table.py"
    done = subprocess.run([sys.executable, str(script), "--check-sample"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert " sampled APIs match" in done.stdout
