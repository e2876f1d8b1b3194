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


# The validate IR of `a, b = x.chunk(2, dim=1)` and `return x.cumsum(dim=1)` as MindSpore 2.10
# dumps it (the lines that matter): the operator's node has no line of the user's, its users do.
CHUNK_IR = """
subgraph @1_Halves_construct_1(%para1_x) {
  %0(CNode_31) = PrimFunc_Chunk(%para1_x, I64(2), I64(1)) cnode_attrs: {checkpoint: Bool(1)}
      : (<Tensor[Float32], (2, 4)>, <Int64, NoShape>, <Int64, NoShape>) -> (<Tuple[Tensor[Float32]*2]>)
      # Fullname with scope: (Default/Chunk-op0)
  %1(a) = TupleGetItem(%0, I64(0)) cnode_attrs: {checkpoint: Bool(1)}
      # In file {path}:8~11, 4~20/    def construct(self, x):/
      # In file {path}:10, 8~32/        a, b = x.chunk(2, dim=1)/
  Return(%1) cnode_attrs: {checkpoint: Bool(1)}
      # In file {path}:11, 8~20/        return a/
}
subgraph @3_Running_construct_15(%para1_x) {
  %0(CNode_14) = PrimFunc_CumsumExt(%para1_x, I64(1), None) cnode_attrs: {checkpoint: Bool(1)}
      # Fullname with scope: (Default/CumsumExt-op0)
  Return(%0) cnode_attrs: {checkpoint: Bool(1)}
      # In file {path}:14~15, 4~30/    def construct(self, x):/
      # In file {path}:15, 8~30/        return x.cumsum(dim=1)/
}
subgraph @4_Smallest_construct_16(%para1_x) {
  %0(CNode_15) = PrimFunc_ArgMinExt(%para1_x) cnode_attrs: {checkpoint: Bool(1)}
      # In file {path}:18~19, 4~30/    def construct(self, x):/
      # In file {path}:19, 15~29/        return mint.argmin(x)/
      # In file {library}:120, 11~32/    return argmin_ext_op(input)/
  Return(%0) cnode_attrs: {checkpoint: Bool(1)}
      # In file {path}:19, 8~29/        return mint.argmin(x)/
}
"""


def test_a_missing_kernel_is_located_on_the_call_in_the_ir(tmp_path: Path) -> None:
    """The kernel failure names no line: its node in the IR does, or the first node that uses it
    (the tuple `x.chunk(2, dim=1)` unpacks, the `return` of `x.cumsum(dim=1)`), never a library's."""
    from mslint.verify.compiler_output import kernel_locations

    path = tmp_path / "net.py"
    path.write_text("")
    library = tmp_path / "lib" / "ops.py"
    ir = CHUNK_IR.replace("{path}", str(path)).replace("{library}", str(library))
    is_user_file = lambda name: Path(name).parent == tmp_path  # noqa: E731
    located = {kernel: kernel_locations(ir, kernel, is_user_file) for kernel in ("Chunk", "CumsumExt", "ArgMinExt")}
    assert located == {
        "Chunk": ((str(path.resolve()), 10),),
        "CumsumExt": ((str(path.resolve()), 15),),
        "ArgMinExt": ((str(path.resolve()), 19),),
    }
    assert kernel_locations(ir, "Repeat", is_user_file) == (), "a kernel the IR has no node of"


@pytest.mark.mindspore
@pytest.mark.xdist_group("example-compiles")
def test_verify_counts_a_compile_stopped_by_a_missing_kernel_apart() -> None:
    report = verify_example(RULES_DIR / "unsupported-kernel" / "bad.py")
    assert report["compiles"] and {c["stopped"] for c in report["compiles"]} == {"kernel"}, report["compiles"]
    assert {f["verdict"] for f in report["findings"]} == {"confirmed"}, report["findings"]


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_sample_of_the_kernel_table_measures_as_shipped() -> None:
    """The APIs the table lists as missing on CPU, and one in ten of the others, measured again (the
    whole table, 1502 APIs, takes 105 CPU-s from an empty cache; test_docs checks it whole from
    the record of its measurements, whose key leaves out how a measurement is read and the Python):
    each is missing exactly where the shipped table says, with its kernel and call."""
    script = REPO / "scripts" / "generate_kernel_table.py"
    done = subprocess.run([sys.executable, str(script), "--check-sample"], capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert " sampled APIs match" in done.stdout
