"""Property: whatever the source text, ``mslint check`` reports and never raises."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, target
from hypothesis import strategies as st

from mslint.engine import check_files
from mslint.settings import Settings
from tests.examples import example_files

SEEDS = [p.read_text() for p in example_files()]
PYTHON_ALPHABET = st.sampled_from(list("abcnpx_.()[]{}:=,+-*/<>%@ \n\t#'\"0123456789\\")) | st.characters()
FRAGMENTS = st.sampled_from(
    ["def ", "class ", "construct", "(self, x):", "nn.Cell", "np.", "ops.unique(", "[:n]", "self.", "    ", "\n"]
)


@st.composite
def mutated_examples(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SEEDS)).splitlines()
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            break
        position = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "truncate", "swap"]))
        if action == "delete":
            del lines[position]
        elif action == "duplicate":
            lines.insert(position, lines[position])
        elif action == "insert":
            lines.insert(position, draw(st.text(PYTHON_ALPHABET, max_size=30)) + draw(FRAGMENTS))
        elif action == "truncate":
            lines[position] = lines[position][: draw(st.integers(0, len(lines[position])))]
        else:
            other = draw(st.integers(0, len(lines) - 1))
            lines[position], lines[other] = lines[other], lines[position]
    return "\n".join(lines)


def check_source(tmp_path: Path, source: str) -> None:
    path = tmp_path / "fuzzed.py"
    path.write_text(source, encoding="utf-8", errors="surrogatepass")
    report = check_files([path], Settings())
    assert all(d.line >= 1 and d.column >= 1 for d in report.diagnostics)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=mutated_examples())
def test_mutated_examples_never_raise(tmp_path: Path, source: str) -> None:
    check_source(tmp_path, source)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=st.text(PYTHON_ALPHABET, max_size=300))
def test_random_text_never_raises(tmp_path: Path, source: str) -> None:
    check_source(tmp_path, source)


# Deeply nested programs (issue 14): chains thousands deep once exhausted Python's stack in the
# value model and the parser. Each layer wraps the expression built so far: (before, after).
LAYERS = {
    "binary-op": ("", " + x"),
    "power": ("", " ** x"),
    "comparison": ("", " < x"),
    "method-call": ("", ".sum()"),
    "slice": ("", "[1:]"),
    "subscript": ("", "[0]"),
    "attribute": ("", ".data"),
    "conditional": ("", " if x else x"),
    "unary-minus": ("-", ""),
    "not": ("not ", ""),
    "call": ("ops.abs(", ")"),
    "comprehension": ("[", " for i in x]"),
    "lambda": ("(lambda: ", ")()"),
    "tuple": ("(", ", x)"),
}
PLACES = {
    "assignment": "        y = {expression}\n        return y\n",
    "return": "        return {expression}\n",
    "condition": "        if {expression}:\n            x = x + 1\n        return x\n",
    "helper": "        return self.helper(x)\n\n    def helper(self, x):\n        return {expression}\n",
}
DEEP_HEADER = "from mindspore import nn, ops\n\n\nclass Deep(nn.Cell):\n    def construct(self, x):\n"


@st.composite
def deeply_nested_cells(draw: st.DrawFn) -> tuple[str, int]:
    """A Cell whose construct holds an expression of up to three layers, each repeated tens to
    a thousand times (up to about 3,600 deep), possibly inside nested ``if`` blocks; and its depth."""
    expression, depth = "x", 0
    for layer in draw(st.lists(st.sampled_from(sorted(LAYERS)), min_size=1, max_size=3)):
        count = draw(st.integers(10, 1200))
        before, after = LAYERS[layer]
        expression, depth = before * count + expression + after * count, depth + count
    body = draw(st.sampled_from(sorted(PLACES)))
    blocks = draw(st.integers(0, 60))
    indent = "    " * blocks
    lines = [
        f"{indent}{line}" if line.strip() else line for line in PLACES[body].format(expression=expression).splitlines()
    ]
    nested_ifs = "".join(f"        {'    ' * level}if x:\n" for level in range(blocks))
    return DEEP_HEADER + nested_ifs + "\n".join(lines) + "\n", depth + blocks


NUMPY_CELL = (
    "import numpy as np\nfrom mindspore import nn\n\n\n"
    "class Net(nn.Cell):\n    def construct(self, x):\n        return np.sum(x)\n"
)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(program=deeply_nested_cells())
def test_deeply_nested_code_never_raises_and_other_files_keep_their_findings(
    tmp_path: Path, program: tuple[str, int]
) -> None:
    source, depth = program
    target(float(depth), label="nesting depth")
    deep, other = tmp_path / "deep.py", tmp_path / "other.py"
    deep.write_text(source, encoding="utf-8")
    other.write_text(NUMPY_CELL, encoding="utf-8")
    report = check_files([deep, other], Settings())
    assert report.unreadable == []
    assert {d.symbol for d in report.diagnostics if d.path == str(other)} == {"third-party-call-in-graph"}
    assert all(d.line >= 1 and d.column >= 1 for d in report.diagnostics)
