"""Property: whatever the source text, ``mslint check`` reports and never raises."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
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
