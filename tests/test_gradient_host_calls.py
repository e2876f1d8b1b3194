"""Gradients a script calls from Python (MS124 on host code), and the watcher that confirms them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.settings import Settings

SCRIPT = """
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops
{mode}

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


net = Net()
x = Tensor(np.ones((2, 4), np.float32))
grad = ops.GradOperation(get_all=True, sens_param=True)
{call}
"""
GRAPH = "ms.set_context(mode=ms.GRAPH_MODE)"
PYNATIVE = "ms.set_context(mode=ms.PYNATIVE_MODE)"
CALL_LINE = 19


def flagged(tmp_path: Path, mode: str, call: str) -> list[int]:
    path = tmp_path / "train.py"
    path.write_text(SCRIPT.format(mode=mode, call=call))
    report = check_files([path], Settings())
    return [d.line for d in report.diagnostics if d.symbol == "gradient-input-mismatch"]


@pytest.mark.parametrize("mode", ["", GRAPH, PYNATIVE])
def test_a_python_number_sens_fails_in_either_mode(tmp_path: Path, mode: str) -> None:
    assert flagged(tmp_path, mode, "grad(net)(x, 1.0)") == [CALL_LINE]


@pytest.mark.parametrize("mode", ["", GRAPH, PYNATIVE])
def test_a_sens_of_the_output_dtype_is_not_flagged(tmp_path: Path, mode: str) -> None:
    assert flagged(tmp_path, mode, "grad(net)(x, ops.ones((2, 3), ms.float32))") == []


@pytest.mark.parametrize(("mode", "lines"), [(GRAPH, [CALL_LINE]), ("", []), (PYNATIVE, [])])
def test_a_tuple_sens_fails_only_in_graph_mode(tmp_path: Path, mode: str, lines: list[int]) -> None:
    """PyNative runs a tuple for a tensor output; a script that selects no mode runs PyNative."""
    assert flagged(tmp_path, mode, "grad(net)(x, (ops.ones((2, 3), ms.float32),))") == lines


def test_positions_and_aux_of_a_script(tmp_path: Path) -> None:
    calls = "ms.grad(net, grad_position=1)(x)\nms.value_and_grad(net, 0, None, has_aux=True)(x)"
    assert flagged(tmp_path, "", calls) == [CALL_LINE, CALL_LINE + 1]


def test_a_gradient_function_bound_to_a_name_then_called(tmp_path: Path) -> None:
    calls = "grad_fn = grad(net)\ngrad_fn(x, 1.0)\nstep = ms.value_and_grad(net, 0, None, has_aux=True)\nstep(x)"
    assert flagged(tmp_path, GRAPH, calls) == [CALL_LINE + 1, CALL_LINE + 3]


def test_a_name_bound_to_two_gradient_functions_is_left_alone(tmp_path: Path) -> None:
    calls = "grad_fn = grad(net)\nif x.sum() > 0:\n    grad_fn = grad(Net())\ngrad_fn(x, 1.0)"
    assert flagged(tmp_path, GRAPH, calls) == []


def test_a_gradient_of_nothing_raises_before_any_compile_and_is_left_alone(tmp_path: Path) -> None:
    assert flagged(tmp_path, GRAPH, "ms.grad(net, None)(x)") == []


def test_a_plain_function_of_the_script(tmp_path: Path) -> None:
    call = (
        "def step():\n    model = Net()\n    data = Tensor(np.ones((2, 4), np.float32))\n"
        "    g = ops.GradOperation(sens_param=True)\n    return g(model)(data, 2)"
    )
    assert flagged(tmp_path, GRAPH, call) == [CALL_LINE + 4]


@pytest.mark.mindspore
def test_the_watcher_reports_a_gradient_a_script_calls_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "train.py"
    path.write_text(SCRIPT.format(mode=GRAPH, call="grad(net)(x, 1.0)"))
    script = (
        "import runpy\n"
        "from mslint.verify.runtime import watch\n"
        "def report(problem):\n    print(problem.kind, problem.locations[0][1], problem.message)\n"
        f"watch(report, lambda p: p == {str(path)!r})\n"
        f"try:\n    runpy.run_path({str(path)!r})\nexcept TypeError:\n    pass\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == f"error {CALL_LINE} TypeError: Type Join Failed: dtype1 = Float32, dtype2 = Any."


CAPTURED = """
import importlib
import numpy as np
import mindspore as ms
from mindspore import jit
from mslint.verify.runtime import watch

watch(print, lambda path: False)
try:
    importlib.import_module("mindspore.graph._pijit.pijit_func_white_list")
    print("functions known to bytecode capture: loaded")
except RuntimeError as error:
    print(error)


@jit(capture_mode="bytecode", fullgraph=True)
def host_round_trip(x):
    y = x * 2
    return ms.Tensor(np.abs(y.asnumpy()))


try:
    host_round_trip(ms.Tensor(np.ones((2, 3), np.float32)))
except Exception as error:
    print(str(error).splitlines()[0])
"""


@pytest.mark.mindspore
def test_bytecode_capture_works_as_without_the_watchers() -> None:
    """Bytecode capture recognises gradient functions by the ``after_grad`` code in MindSpore's
    gradient classes, and does not start where it finds none: with the watchers installed, its
    table of known functions still loads, and graph-break's example still stops at
    ``.asnumpy()``, not at its first line ("Cannot infer the execution result")."""
    from mslint.verify.capture_modes import bytecode_refusal

    result = subprocess.run([sys.executable, "-c", CAPTURED], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "functions known to bytecode capture: loaded"
    if not bytecode_refusal():  # Python 3.12+: the release refuses every bytecode-captured call
        assert lines[-1] == "Reason: Unsupported function"
