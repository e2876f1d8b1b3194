"""Every rules/ example: the linter finds exactly its markers, and ``mslint verify`` confirms each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mslint.engine import check_files
from mslint.rules import all_rules, rule_named
from mslint.rules.suppression_comments import SuppressionRule
from mslint.settings import Settings
from mslint.verify.capture_modes import bytecode_refusal
from tests.compiler import compile_examples, verify_example
from tests.example_record import UPDATE_OPTION, ExampleRecord, example_key, facts, record_path, recorded_examples
from tests.examples import (
    RULES_DIR,
    compile_entries,
    example_files,
    example_target,
    expected_findings,
    uses_bytecode_capture,
)

EXAMPLES = example_files()
IDS = [str(p.relative_to(RULES_DIR)) for p in EXAMPLES]
RECORD_NAME = record_path().relative_to(RULES_DIR.parent)


def lint(path: Path) -> set[tuple[int, str]]:
    report = check_files([path], Settings(target=example_target(path)))
    return {(d.line, d.symbol) for d in report.diagnostics}


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_linter_finds_exactly_the_markers(path: Path) -> None:
    assert lint(path) == expected_findings(path)


@pytest.fixture(scope="session")
def example_record(request: pytest.FixtureRequest) -> Iterator[ExampleRecord]:
    """The record of the compiler's facts on the examples, written again at the end with
    ``--update-example-compiles`` (see :mod:`tests.example_record`)."""
    record = ExampleRecord()
    yield record
    if request.config.getoption(UPDATE_OPTION):
        record.write()


def _recorded_facts(path: Path, record: ExampleRecord) -> dict[str, Any] | None:
    """The facts the test reads from the record instead of compiling: none for an example captured
    from bytecode (the Python decides), one the record does not hold, or one of its sample."""
    if uses_bytecode_capture(path) or record.sampled(path):
        return None
    return record.lookup(path)


@pytest.fixture(scope="session")
def compiled_examples(request: pytest.FixtureRequest, example_record: ExampleRecord) -> None:
    """The examples this session's tests compile, compiled in one run on every core (for the
    result cache that each example's own verify reads). Once a session: the measurements run
    first (conftest), so the examples captured from bytecode come after other modules' tests, and
    a module's fixture would start that run again for them."""
    tests = [item for item in request.session.items if isinstance(item, pytest.Function)]
    paths = {test.callspec.params["path"] for test in tests if "compiled_examples" in test.fixturenames}
    compiled = {path for path in paths if _recorded_facts(path, example_record) is None}
    if compiled:
        compile_examples(compiled)


def _confirmed(path: Path) -> object:
    """What the compiler says of an example is a fact of the release, re-measured once per CI run
    (``measurement``), but for the examples captured from bytecode: whether the release captures
    them at all depends on the Python (2.10 refuses from 3.12), so every Python checks those."""
    return pytest.param(path, marks=() if uses_bytecode_capture(path) else pytest.mark.measurement)


# Under pytest -n, every example in one worker: the fixture above would compile them all again
# in each worker that verifies one.
@pytest.mark.mindspore
@pytest.mark.xdist_group("example-compiles")
@pytest.mark.usefixtures("compiled_examples")
@pytest.mark.parametrize("path", [_confirmed(path) for path in EXAMPLES], ids=IDS)
def test_compiler_confirms_the_markers(path: Path, example_record: ExampleRecord) -> None:
    found = _recorded_facts(path, example_record)
    if found is None:
        report = verify_example(path)
        refusal = bytecode_refusal() if uses_bytecode_capture(path) else None
        if refusal:  # Python 3.12+: the release runs no bytecode capture (the examples' or the file's own entries)
            compiles = report["compiles"]
            assert {(c["status"], c.get("reason")) for c in compiles} == {("not-verifiable", refusal)}, compiles
            verdicts = {(f["line"], f["symbol"]): f["verdict"] for f in report["findings"]}
            assert verdicts == dict.fromkeys(expected_findings(path), "not-verifiable"), report["findings"]
            return
        found = facts(report)
        held = None if uses_bytecode_capture(path) else example_record.lookup(path)
        assert held in (None, found), f"the compiler no longer says what {RECORD_NAME} holds: {held} != {found}"
    compiles = found["compiles"]
    # The example factories' entries; beside them verify may compile what it builds itself as the
    # example's code does (bad_given.py's Chain, built as Model builds it, on synthesised inputs),
    # which the markers' verdicts below take into account whatever its status.
    examples = [c for c in compiles if c["example"]]
    assert len(examples) == 2 * len(compile_entries(path)), "each entry is compiled at both syntax levels"
    assert all(c["status"] in ("compiled", "build-failed") for c in examples), compiles
    assert all((c["status"] == "build-failed") == (c["stopped"] == "build") for c in compiles), compiles
    assert found["compiler_only"] == [], "the compiler found problems on lines without a marker"
    verdicts = {(f["line"], f["symbol"]): f["verdict"] for f in found["findings"]}
    assert set(verdicts) == expected_findings(path)
    expected = {finding: _expected_verdict(path, finding[1]) for finding in verdicts}
    unconfirmed = sorted(finding for finding, verdict in verdicts.items() if verdict != expected[finding])
    assert unconfirmed == [], f"the compiler does not confirm {unconfirmed}: {found['findings']}"
    if not uses_bytecode_capture(path):
        example_record.keep(path, found)


# After the examples (in their worker, in collection order), whose facts a run with
# --update-example-compiles writes first.
@pytest.mark.mindspore
@pytest.mark.measurement
@pytest.mark.xdist_group("example-compiles")
def test_the_record_holds_every_example(request: pytest.FixtureRequest, example_record: ExampleRecord) -> None:
    """The record of the compiler's facts holds every example (one it lacks is compiled in every
    CI run) and none that no example has any more: the examples edited since it was written."""
    if request.config.getoption(UPDATE_OPTION):
        example_record.write()
    record = ExampleRecord()
    keys = {example_key(path): path for path in recorded_examples()}
    missing = sorted(str(path.relative_to(RULES_DIR)) for key, path in keys.items() if key not in record.held)
    stale = sorted(entry["example"] for key, entry in record.held.items() if key not in keys)
    command = f"python -m pytest tests/test_rule_examples.py -m mindspore {UPDATE_OPTION}"
    assert (missing, stale) == ([], []), f"{RECORD_NAME}: lacks {missing}, holds stale {stale}; `{command}` writes it"


def _expected_verdict(path: Path, symbol: str) -> str:
    """Findings about suppression comments are the one kind the compiler cannot judge: it ignores
    comments. differs-from-pytorch's ``bad_measured*.py`` holds valid MindSpore that means
    something else than in PyTorch: it compiles and runs at both levels, and the difference is
    measured on MindSpore by ``scripts/measure_pytorch_differences.py`` (run by test_docs).
    unknown-mindspore-api's ``bad_measured_at_run.py`` holds calls that compile and stop in the
    operator's kernel when the graph runs, which ``mslint verify`` takes for no problem of the
    compile; the argument table measured them (``scripts/generate_argument_table.py``)."""
    if isinstance(rule_named(symbol), SuppressionRule):
        return "not-verifiable"
    measured = (symbol == "differs-from-pytorch" and path.name.startswith("bad_measured")) or (
        symbol == "unknown-mindspore-api" and path.name == "bad_measured_at_run.py"
    )
    return "not-reproduced" if measured else "confirmed"


def test_every_rule_has_bad_and_good_examples() -> None:
    for rule in all_rules():
        if rule.symbol == "syntax-error":
            continue
        folder = RULES_DIR / rule.symbol
        bad = [p for p in folder.glob("bad*.py") if expected_findings(p)]
        good = list(folder.glob("good*.py"))
        assert bad and good, f"{rule.symbol} needs bad and good examples in {folder}"
        assert all(compile_entries(p) for p in bad + good), f"every example of {rule.symbol} needs compile entries"
        # a bad example may mark another rule as well, where its form needs that rule's finding on a line
        # of its own (`lengths = t.tolist()`, then `max(lengths)`), but each marks its folder's rule
        unmarked = [p.name for p in bad if rule.symbol not in {s for _, s in expected_findings(p)}]
        assert unmarked == [], f"{folder}: {unmarked} mark no {rule.symbol}"
