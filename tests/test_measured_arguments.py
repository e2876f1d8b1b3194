"""unknown-mindspore-api on calls whose literal arguments the release refuses, as measured by
``scripts/generate_argument_table.py`` (``mslint/data/arguments-<release>.json``): every refused
combination of the table is reported, every accepted one is not, and every fix it proposes
writes a call that the table, and MindSpore compiling it in a graph, accept."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.fixes import apply_fixes
from mslint.mindspore_tables import table
from mslint.settings import Settings
from tests.examples import REPO

RELEASE = "2.10.0"
HEADER = "import mindspore as ms\nfrom mindspore import mint, nn, ops\n\n\n"
TENSOR_METHOD = "mindspore.Tensor."


def _measured_calls() -> list[tuple[str, str, dict[str, str | None]]]:
    """(api, the call's text, the measured row) for every measured call, with ``x`` its input."""
    calls = []
    for api, entry in table("arguments", RELEASE)["apis"].items():
        for row in entry["calls"]:
            arguments = ", ".join(
                value if name.startswith("*") else f"{name}={value}" for name, value in row["arguments"].items()
            )
            text = entry["call"].format(arguments=arguments).replace(", )", ")").replace("(, ", "(")
            calls.append((api, text, row))
    return calls


CALLS = _measured_calls()


def _refused_somewhere(api: str, rows: list[dict[str, str | None]]) -> bool:
    """Raised in both modes; a Tensor method, checked in graph code only, where the graph raised."""
    return any(row["graph"] and (row["pynative"] or api.startswith(TENSOR_METHOD)) for row in rows)


def _findings(tmp_path: Path, texts: list[str]) -> tuple[Path, list[tuple[int, str, bool]]]:
    """Each text as the body of a graph function of its own (so that ``x`` is a tensor): the line,
    message and whether it has a fix of each finding."""
    source = HEADER + "".join(f"@ms.jit\ndef case_{i}(x):\n    return {text}\n\n\n" for i, text in enumerate(texts))
    path = tmp_path / "calls.py"
    path.write_text(source)
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    return path, [(d.line, d.message, d.fix is not None) for d in report.diagnostics]


def _line(index: int) -> int:
    return 7 + 5 * index


def test_the_table_was_measured_on_the_release() -> None:
    measured = table("arguments", RELEASE)
    assert measured["mindspore"] == RELEASE
    assert len(CALLS) > 300 and {"mindspore.ops.interpolate", "mindspore.nn.Upsample"} <= set(measured["apis"])


def test_the_ports_apis_their_mint_spellings_and_tensor_methods_are_measured() -> None:
    apis = set(table("arguments", RELEASE)["apis"])
    ops = {f"mindspore.ops.{name}" for name in ("gather", "scatter", "arange", "linspace", "where", "sort", "cumsum")}
    others = {"mindspore.ops.masked_fill", "mindspore.mint.sum", "mindspore.mint.split", "mindspore.Tensor.sum"}
    assert ops | others | {"mindspore.Tensor.topk", "mindspore.Tensor.masked_fill"} <= apis


def test_a_tensor_method_is_checked_in_graph_code_on_a_tensor(tmp_path: Path) -> None:
    """``x.topk(2.0)`` where ``x`` is a graph function's argument, by position, and fixed; the
    same call outside graph code, where nothing says ``x`` is a tensor, is not judged; the mint
    spelling is bound by its signature (``mint.sum(x, 1.0)``)."""
    path = tmp_path / "methods.py"
    path.write_text(
        HEADER + "@ms.jit\ndef f(x):\n    return x.topk(2.0), mint.sum(x, 1.0)\n\n\ndef g(x):\n    return x.topk(2.0)\n"
    )
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    found = sorted(
        (d.line, d.column, d.message.split(" raises")[0], d.fix.message if d.fix else "") for d in report.diagnostics
    )
    assert found == [
        (7, 12, "`mindspore.Tensor.topk` with 2.0", "Write `2`"),
        (7, 25, "`mindspore.mint.sum` with dim=1.0", "Write `dim=1`"),
    ]


def test_round_of_a_tensor_is_checked_as_its_method(tmp_path: Path) -> None:
    """``round(x, 2)`` of a graph tensor is the operator of ``x.round(2)``: the digits the graph
    refused are reported, no digits or 0 are not, and ``round`` of a number is Python's."""
    path = tmp_path / "rounding.py"
    path.write_text(
        HEADER + "@ms.jit\ndef f(x):\n    t = ops.relu(x)\n"
        "    return round(t, 2), round(t, -1), round(t), round(t, 0), round(2.567, 2), round(x.shape[0] / 3, 2)\n"
    )
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    found = sorted((d.line, d.column, d.message.split(" raises")[0]) for d in report.diagnostics)
    assert found == [(8, 12, "`mindspore.Tensor.round` with 2"), (8, 25, "`mindspore.Tensor.round` with -1")]


def test_refused_combinations_are_reported_and_accepted_ones_are_not(tmp_path: Path) -> None:
    """A combination is reported where a call of it raised in both modes, with the release's
    message: an error where it raised on every input rank, a warning where on some (the rank
    decides, which mslint does not know here); one that ran everywhere is never reported."""
    texts = [text for _, text, _ in CALLS]
    _, found = _findings(tmp_path, texts)
    reported = {line for line, _, _ in found}
    by_text: dict[str, list[dict[str, str | None]]] = {}
    for _, text, row in CALLS:
        by_text.setdefault(text, []).append(row)
    for index, (api, text, row) in enumerate(CALLS):
        expected = _refused_somewhere(api, by_text[text])
        assert (_line(index) in reported) == expected, (text, row)
    messages = {message for _, message, _ in found}
    refused_int = "(measured): TypeError: For 'interpolate', the 'scale_factor' must be float"
    assert any(m.startswith("`mindspore.ops.interpolate` with mode=") and refused_int in m for m in messages)


def _fixed(tmp_path: Path) -> tuple[list[str], dict[int, str], dict[int, list[str]], str]:
    """Every measured call's text, the message of each line with a fix, the messages left on
    each line once the fixes are applied, and the fixed source."""
    texts = sorted({text for _, text, _ in CALLS})
    path, _ = _findings(tmp_path, texts)
    report = check_files([path], Settings(select=("unknown-mindspore-api",)))
    fixed = {d.line: d.message for d in report.diagnostics if d.fix}
    source, applied = apply_fixes(path.read_text(), [d.fix for d in report.diagnostics if d.fix])
    assert applied == len(fixed)
    path.write_text(source)
    left: dict[int, list[str]] = {}
    for d in check_files([path], Settings(select=("unknown-mindspore-api",))).diagnostics:
        left.setdefault(d.line, []).append(d.message)
    return texts, fixed, left, source


def test_every_fix_writes_a_call_measured_to_run(tmp_path: Path) -> None:
    """The fixes of the table (`2` -> `2.0`, a list as a tuple, a scale factor recomputed) give
    a combination it says runs in PyNative and in a graph: once applied, nothing is left to report
    there. The fixes of the signature checks remove their finding (`normalized_shape=6` ->
    `(6,)`); another argument of the same call may still be refused (`epsilon=0`)."""
    _, fixed, left, _ = _fixed(tmp_path)
    measured = [line for line, message in fixed.items() if "(measured" in message]
    assert measured, "the table proposes fixes"
    assert [line for line in measured if line in left] == [], "every call the table's fixes write runs"
    assert all(message not in left.get(line, []) for line, message in fixed.items())


FIXED_CALLS = """\
import json, sys
import numpy as np
import mindspore as ms
sys.path.insert(0, sys.argv[1])
import fixed

failed = []
for name, spec in json.loads(sys.argv[2]):
    dtype, shape = spec.rstrip("]").split("[")
    x = ms.Tensor(np.ones(tuple(int(n) for n in shape.split(",")), dtype))
    try:
        ms.jit(getattr(fixed, name), fullgraph=True)(x)
    except Exception as error:
        failed.append(f"{name}: {type(error).__name__}: {str(error).splitlines()[0]}")
print(json.dumps(failed))
"""


def _compiled_case(name: str, call: str) -> str:
    """A function that returns ``call`` on its input ``x``; a layer is built at module level and
    called in it, as a Cell's ``__init__`` builds it and its ``construct`` calls it."""
    if call.startswith("nn."):
        return f"{name}_layer = {call}\n\n\ndef {name}(x):\n    return {name}_layer(x)\n\n\n"
    return f"def {name}(x):\n    return {call}\n\n\n"


@pytest.mark.mindspore
@pytest.mark.measurement
def test_the_fixed_calls_compile_in_a_graph(tmp_path: Path) -> None:
    """Each call the fixes write that nothing is left to report on runs compiled (STRICT) on each
    input it was measured with. Most are rows of the table themselves, whose graph outcome on that
    input the generator measured (``ms.jit``, ``fullgraph=True``; the table is checked whole
    against the record of those measurements by test_the_table_is_up_to_date, and a tenth of them
    measured again by the sample test): those are read from the table, where a compile here would
    measure the same call again (about 0.4 CPU-s each); the others are compiled."""
    texts, fixed, left, source = _fixed(tmp_path)
    specs: dict[str, list[str]] = {}
    graph: dict[tuple[str, str], set[str | None]] = {}
    for _, text, row in CALLS:
        specs.setdefault(text, []).append(str(row["input"]))
        graph.setdefault((text, str(row["input"])), set()).add(row["graph"])
    lines = source.splitlines()
    # Each (call, input) once: rows share an input, and fixes make texts alike (155 calls and inputs, 102 distinct).
    distinct: dict[tuple[str, str], None] = {}
    for index, text in enumerate(texts):
        if _line(index) in fixed and _line(index) not in left:
            call = lines[_line(index) - 1].strip().removeprefix("return ")
            distinct.update(dict.fromkeys((call, spec) for spec in specs[text]))
    assert distinct
    refused = sorted((call, spec) for call, spec in distinct if graph.get((call, spec), {None}) != {None})
    assert refused == [], "the table measured these fixed calls to raise in a graph"
    unmeasured = [(call, spec) for call, spec in distinct if (call, spec) not in graph]
    cases = [(f"fixed_{number}", call, spec) for number, (call, spec) in enumerate(unmeasured)]
    if not cases:
        return
    module = HEADER + "".join(_compiled_case(name, call) for name, call, _ in cases)
    (tmp_path / "fixed.py").write_text(module)
    result = subprocess.run(
        [sys.executable, "-c", FIXED_CALLS, str(tmp_path), json.dumps([(n, s) for n, _, s in cases])],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


@pytest.mark.mindspore
@pytest.mark.measurement
def test_the_table_is_up_to_date() -> None:
    """The generator's --check: every call's outcome read from the record of its measurements
    (mslint/data/compiles/arguments-*.json) by the key of what is run, only the calls the record
    does not hold measured (the whole table, 581 calls, is about 260 CPU-s from an empty cache)."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_argument_table.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]


@pytest.mark.mindspore
@pytest.mark.measurement
def test_a_sample_of_the_table_measures_as_shipped() -> None:
    """One call in ten measured again, for what the record's key leaves out (the Python): each
    raises in each mode what its shipped row says."""
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_argument_table.py"), "--check-sample"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=1800,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert " sampled calls match" in result.stdout
