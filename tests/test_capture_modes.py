"""The capture mode of each entry (ast, bytecode, trace), and which rules judge it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from mslint.engine import check_files, load_project
from mslint.settings import Settings
from mslint.verify.capture_modes import bytecode_refusal, capture_mode, graph_break_locations
from tests.examples import REPO

Write = Callable[[str, str], Path]

_HEAD = """
import functools
import mindspore as ms
from mindspore import jit, nn, ops
"""


def captures(write: Write, source: str) -> dict[str, tuple[str, bool]]:
    path = write("mod.py", _HEAD + source)
    analysis = load_project([path], Settings())
    return {f.node.name: (f.capture.mode, f.capture.fullgraph) for f in analysis.graph.functions}


def findings(write: Write, source: str) -> set[tuple[str, str]]:
    path = write("mod.py", _HEAD + source)
    return {(d.symbol, str(d.severity)) for d in check_files([path], Settings()).diagnostics}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("@jit\ndef f(x):\n    return x\n", ("ast", False)),
        ("@ms.jit(capture_mode='bytecode')\ndef f(x):\n    return x\n", ("bytecode", False)),
        ("@jit(capture_mode='bytecode', fullgraph=True)\ndef f(x):\n    return x\n", ("bytecode", True)),
        ("@jit(capture_mode='trace', jit_level='O1')\ndef f(x):\n    return x\n", ("trace", False)),
        ("@functools.partial(jit, capture_mode='trace')\ndef f(x):\n    return x\n", ("trace", False)),
        ("tjit = functools.partial(jit, capture_mode='trace')\n@tjit\ndef f(x):\n    return x\n", ("trace", False)),
        (
            "bjit = functools.partial(ms.jit, capture_mode='bytecode')\n"
            "@bjit(fullgraph=True)\ndef f(x):\n    return x\n",
            ("bytecode", True),
        ),
        ("def f(x):\n    return x\n\ng = ms.jit(f, capture_mode='trace')\n", ("trace", False)),
        (
            "def f(x):\n    return x\n\nif __name__ == '__main__':\n    g = jit(f, capture_mode='bytecode')\n",
            ("bytecode", False),
        ),
        ("mode = 'trace'\n@jit(capture_mode=mode)\ndef f(x):\n    return x\n", ("ast", False)),
    ],
)
def test_the_capture_of_each_way_to_write_jit(write: Write, source: str, expected: tuple[str, bool]) -> None:
    assert captures(write, source)["f"] == expected


def test_jit_of_a_cells_construct_takes_its_options(write: Write) -> None:
    source = """
class Net(nn.Cell):
    def construct(self, x):
        return x

net = Net()
step = jit(net.construct, capture_mode="bytecode", fullgraph=True)
"""
    assert captures(write, source)["construct"] == ("bytecode", True)


def test_a_function_an_ast_graph_calls_is_ast_whatever_its_decorator(write: Write) -> None:
    source = """
@jit(capture_mode="bytecode")
def inner(x):
    return helper(x)

def helper(x):
    return x

@jit
def outer(x):
    return inner(x)

@jit(capture_mode="trace")
def alone(x):
    return helper2(x)

def helper2(x):
    return x
"""
    found = captures(write, source)
    assert found["inner"] == found["helper"] == ("ast", False)
    assert found["alone"] == found["helper2"] == ("trace", False)


_TRY = """
@jit({options})
def f(x):
    try:
        y = x * 2
    except ValueError:
        y = x
    return y
"""


def test_ast_rules_judge_ast_entries_only(write: Write) -> None:
    assert ("unsupported-syntax", "error") in findings(write, _TRY.format(options=""))
    assert findings(write, _TRY.format(options="capture_mode='trace'")) == set()
    assert findings(write, _TRY.format(options="capture_mode='bytecode'")) == set()


def test_trace_flags_a_tensor_branch_and_not_a_shape_branch(write: Write) -> None:
    source = """
@jit(capture_mode="trace")
def f(x):
    if x.shape[0] > 1:
        x = x * 2
    if x.sum() > 0:
        return x * 2
    return x + 10
"""
    path = write("mod.py", _HEAD + source)
    report = check_files([path], Settings())
    assert [(d.line, d.symbol, str(d.severity)) for d in report.diagnostics] == [(9, "frozen-by-trace", "error")]


def test_trace_flags_host_reads_and_not_what_it_measured_to_follow(write: Write) -> None:
    source = """
@jit(capture_mode="trace")
def f(x):
    y = ops.where(x > 0, x, 0)
    return y * x.sum().item()
"""
    path = write("mod.py", _HEAD + source)
    report = check_files([path], Settings())
    assert [(d.line, d.symbol) for d in report.diagnostics] == [(8, "frozen-by-trace")]


_BREAKS = """
@jit({options})
def f(x):
    y = x.asnumpy()
    return x
"""


def test_a_graph_break_is_a_warning_and_an_error_under_fullgraph(write: Write) -> None:
    assert findings(write, _BREAKS.format(options="capture_mode='bytecode'")) == {("graph-break", "warning")}
    full = _BREAKS.format(options="capture_mode='bytecode', fullgraph=True")
    assert findings(write, full) == {("graph-break", "error")}
    assert ("tensor-to-host-in-graph", "warning") in findings(write, _BREAKS.format(options=""))


def test_a_form_bytecode_capture_fails_on_is_an_error(write: Write) -> None:
    source = """
@jit(capture_mode="bytecode")
def f(x):
    return x * max(x, 1)

f(ops.ones((2, 3)))
"""
    assert findings(write, source) == {("graph-break", "error")}
    assert findings(write, source.replace("f(ops.ones((2, 3)))", "")) == {("graph-break", "warning")}


def check_bytecode_table(only: list[str]) -> None:
    """The bytecode table's generator, ``--check`` on the rows ``only`` names (all where empty),
    agrees with the shipped table; where the Python has no bytecode capture, it says so."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_bytecode_table.py"), "--check"]
        + [argument for row in only for argument in ("--only", row)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=900,
    )
    refusal = bytecode_refusal()  # Python 3.12+: the release has no bytecode capture to measure
    if refusal:
        assert (result.returncode, refusal in result.stderr) == (2, True), result.stderr[-3000:]
    else:
        assert result.returncode == 0, result.stdout + result.stderr[-3000:]


@pytest.mark.mindspore
def test_a_sample_of_the_bytecode_table_measures_as_shipped() -> None:
    """On every Python with MindSpore (bytecode capture depends on the Python): a few forms."""
    check_bytecode_table(["stmt.Try/except", "convert.asnumpy", "builtin.max/tensor-iterable", "builtin.abs/tensor"])


@pytest.mark.mindspore
@pytest.mark.measurement
def test_the_whole_bytecode_table_measures_as_shipped() -> None:
    """Every form re-measured where .mslint_cache/tables does not hold it: 164 forms, 36 CPU-s from
    an empty cache (each child forked from a server that imported MindSpore once; 2 CPU-s a form
    when each imported it itself)."""
    check_bytecode_table([])


@pytest.mark.parametrize(
    ("pyproject", "expected"),
    [
        ('[project]\nrequires-python = ">=3.12"\n', {("graph-break", "error")}),
        ('[project]\nrequires-python = ">3.11,<3.14"\n', {("graph-break", "error")}),
        ('[project]\nrequires-python = ">=3.9"\n', set()),
        ('[project]\nname = "x"\n', set()),
        ("[project\nrequires-python = '>=3.12'", set()),  # unreadable: declares nothing
    ],
)
def test_bytecode_capture_in_a_project_that_declares_python_312_only(
    write: Write, pyproject: str, expected: set[tuple[str, str]]
) -> None:
    write("pyproject.toml", pyproject)
    source = "@jit(capture_mode='bytecode')\ndef f(x):\n    return x * 2\n"
    assert findings(write, source) == expected


def test_a_graph_break_is_located_on_the_users_lines_of_what_fullgraph_raised(tmp_path: Path) -> None:
    user = tmp_path / "step.py"
    user.write_text("x = 1\n" * 12)
    text = (
        "Reason: Unsupported function\n\nFrom user code:\n"
        f"In file {user}:9\n    return ms.Tensor(np.abs(y.asnumpy()))\n"
        "In file /site-packages/mindspore/common/tensor.py:1090\n        return TensorPy_.asnumpy(self)\n"
    )
    is_user_file = lambda path: path.startswith(str(tmp_path))  # noqa: E731
    assert graph_break_locations(text, is_user_file) == ((str(user.resolve()), 9),)
    assert graph_break_locations(f"In file {user}:9\n", is_user_file) == ()  # not a graph break's message


@pytest.mark.mindspore
def test_the_capture_mode_of_a_jit_function_is_read_from_its_wrapper() -> None:
    import mindspore as ms

    def f(x):  # type: ignore[no-untyped-def]
        return x

    assert capture_mode(ms.jit(f)) == "ast"
    assert capture_mode(ms.jit(f, capture_mode="bytecode")) == "bytecode"
    assert capture_mode(ms.jit(f, capture_mode="trace")) == "trace"


def test_a_bytecode_function_a_cell_calls_is_ast(write: Write) -> None:
    source = """
@jit(capture_mode="bytecode")
def helper(x):
    return x

class Net(nn.Cell):
    def construct(self, x):
        return helper(x)
"""
    assert captures(write, source)["helper"] == ("ast", False)
