"""Every rules/ example: the linter finds exactly its markers, and the compiler confirms them."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.engine import check_files
from mslint.rules import all_rules
from mslint.settings import Settings
from tests.compiler import file_evidence
from tests.examples import RULES_DIR, compile_entries, example_files, expected_findings

EXAMPLES = example_files()
IDS = [str(p.relative_to(RULES_DIR)) for p in EXAMPLES]


def lint(path: Path) -> set[tuple[int, str]]:
    report = check_files([path], Settings())
    return {(d.line, d.symbol) for d in report.diagnostics}


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_linter_finds_exactly_the_markers(path: Path) -> None:
    assert lint(path) == expected_findings(path)


@pytest.mark.parametrize("path", EXAMPLES, ids=IDS)
def test_compiler_confirms_the_markers(path: Path) -> None:
    evidence = file_evidence(path)
    expected = expected_findings(path)
    if path.name.startswith("good"):
        assert not expected, "good examples carry no markers"
        assert evidence.problems() == []
    else:
        unconfirmed = sorted(line for line, _ in expected if line not in evidence.confirmed_lines())
        assert unconfirmed == [], f"the compiler does not confirm lines {unconfirmed}: {evidence.by_entry}"


def test_every_rule_has_bad_and_good_examples() -> None:
    for rule in all_rules():
        if rule.symbol == "syntax-error":
            continue
        folder = RULES_DIR / rule.symbol
        bad = [p for p in folder.glob("bad*.py") if expected_findings(p)]
        good = list(folder.glob("good*.py"))
        assert bad and good, f"{rule.symbol} needs bad and good examples in {folder}"
        assert all(compile_entries(p) for p in bad + good), f"every example of {rule.symbol} needs compile entries"
        markers = {symbol for p in bad for _, symbol in expected_findings(p)}
        assert markers == {rule.symbol}, f"{folder} marks {markers}"
