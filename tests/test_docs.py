"""Generated files stay up to date: the rule pages in docs/, and the API tables read from MindSpore."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.diagnostics import Severity
from mslint.pylint_plugin import message_id, message_symbol, plugin_rules
from mslint.rule_docs import severity_text
from mslint.rules import all_rules
from tests.examples import REPO

Run = Callable[..., tuple[int, str, str]]

MEASURED = [pytest.mark.mindspore, pytest.mark.measurement]
"""A generator that measures the installed MindSpore: its --check re-measures the table."""

GENERATORS = [
    "generate_rule_docs.py",  # docs/rules.md and docs/rules/*.md from the rules and rules/
    "generate_syntax_docs.py",  # docs/graph-syntax.md from mslint/data/syntax-*.json
    "generate_augassign_docs.py",  # docs/augmented-assignment.md from mslint/data/augassign-*.json
    "generate_inference_docs.py",  # docs/type-inference.md from mslint/data/inference-*.json and the rules
    "generate_capture_docs.py",  # docs/capture-modes.md from the syntax, bytecode and trace tables
    # mslint/data/jit-forbidden-*.json from MindSpore's own registry
    pytest.param("generate_jit_forbidden.py", marks=MEASURED),
    # mslint/data/attributes-*.json: the attributes of nn.Cell and of the graph values that are not tensors
    pytest.param("generate_attribute_table.py", marks=MEASURED),
    # mslint/data/modules-*.json: the installed MindSpore's modules
    pytest.param("generate_module_table.py", marks=MEASURED),
    # mslint/data/api-*.json from the installed MindSpore
    pytest.param("generate_api_table.py", marks=MEASURED),
    # the printed outputs in mslint/data/pytorch-differences.json, measured on the installed MindSpore
    pytest.param("measure_pytorch_differences.py", marks=MEASURED),
    # mslint/data/inference-*.json, every cell read from the record of its compiles as the syntax
    # table's: under a CPU-s; compiled whole (536 compiles), 74 CPU-s. test_inference_table's sample
    # test compiles 6 of its 58 rows again (--recompile)
    pytest.param("generate_inference_table.py", marks=MEASURED),
    # mslint/data/trace-*.json, every case re-measured where .mslint_cache/tables does not hold its
    # measurement on this release and Python (mindspore_table.MeasurementCache): 7 CPU-s from an empty
    # cache. The bytecode table is checked whole in test_capture_modes (36 CPU-s).
    pytest.param("generate_trace_table.py", marks=MEASURED),
    # mslint/data/syntax-*.json and augassign-*.json, every cell read from the record of their compiles
    # (mslint/data/compiles/, scripts/compile_record.py) by its program's key, only the programs the
    # record does not hold compiled: under a CPU-s each on an unchanged tree. Compiled whole they take
    # 813 and 388 CPU-s (5,886 compiles; 1,436 compared with PyNative), more than CI's time on
    # 2 cores allows. Their sample tests compile a few rows (--recompile) for what the key leaves out
    pytest.param("generate_syntax_table.py", marks=MEASURED),
    pytest.param("generate_augassign_table.py", marks=MEASURED),
    # mslint/data/folds-*.json, every cell read from the record of its compiles as the syntax table's:
    # about a CPU-s; compiled whole (2,104 compiles), about 190 CPU-s. test_fold_table's sample test compiles
    # 17 of its 414 rows again (--recompile)
    pytest.param("generate_fold_table.py", marks=MEASURED),
    # mslint/data/kernels-*.json, every API's outcome read from the record of its measurements
    # (mslint/data/compiles/kernels-*.json) by the key of its calls and inputs, only the APIs the record
    # does not hold measured: measured whole (1502 APIs), 105 CPU-s, 5 to 7 minutes on 2 cores. The sample test in
    # test_unsupported_kernel re-measures 267 APIs (--check-sample) for what the key leaves out
    pytest.param("generate_kernel_table.py", marks=MEASURED),
    # mslint/data/messages-*.json: the compiler's messages on the lines of the bad examples' findings,
    # compiled by the suite's factories into the result cache, beside test_rule_examples' compiles
    # (one worker: neither compiles what the other did), and the syntax table's
    pytest.param("generate_message_table.py", marks=[*MEASURED, pytest.mark.xdist_group("example-compiles")]),
]
TIMEOUTS_S = {"generate_message_table.py": 1800}
"""Where the check compiles: every bad example at both levels where the cache does not hold it."""


@pytest.mark.parametrize("script", GENERATORS)
def test_generated_files_are_up_to_date(script: str) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / script), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=TIMEOUTS_S.get(script, 300),
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]


def test_every_rule_page_is_linked_from_the_index() -> None:
    index = (REPO / "docs" / "rules.md").read_text()
    pages = sorted((REPO / "docs" / "rules").glob("*.md"))
    assert pages and all(f"(rules/{page.name})" in index for page in pages)


def test_every_rule_is_in_the_pylint_and_severity_tables() -> None:
    editors = (REPO / "docs" / "editors.md").read_text()
    configuration = (REPO / "docs" / "configuration.md").read_text()
    for rule in plugin_rules():
        for severity in Severity:
            assert f"`{message_id(rule, severity)}` `{message_symbol(rule, severity)}`" in editors, rule.symbol
    for rule in all_rules():
        assert f"| `{rule.code}` {rule.symbol} | " in configuration, rule.symbol


def test_the_json_fields_table_names_every_field_of_a_finding_and_its_fix(run: Run) -> None:
    _, out, _ = run("check", "--format", "json", "--no-cache", str(REPO / "rules" / "missing-super-init" / "bad.py"))
    finding = json.loads(out)[0]
    fields_section = (REPO / "docs" / "cli.md").read_text().split("| field | type | meaning |\n|---|---|---|\n")[1]
    rows = {row.split(" | ")[0]: row for row in fields_section.split("\n\n")[0].splitlines()}
    documented = {name for cell in rows for name in re.findall(r"`(\w+)`", cell)}
    assert documented == set(finding)
    fix_row = rows["| `fix`"]
    for key in [*finding["fix"], *finding["fix"]["edits"][0]]:
        assert f"`{key}`" in fix_row, key


@pytest.mark.parametrize(
    ("symbol", "severity"),
    [
        (
            "python-container-of-cells",
            "error; warning for containers of Parameters, of dropouts among Cells without Parameters, and of Cells "
            "of the checked code that create none and are given what mslint could not follow",
        ),
        (
            "parameter-mutation-in-graph",
            "error; warning for `requires_grad` set on a plain tensor or a `construct` input (a LAX fallback)",
        ),
        ("torch-api-in-cell", "error"),
    ],
)
def test_severity_in_the_docs_names_the_findings_that_are_warnings(symbol: str, severity: str) -> None:
    (rule,) = [r for r in all_rules() if r.symbol == symbol]
    assert severity_text(rule) == severity
    assert f"| `{symbol}` | {severity} |" in (REPO / "docs" / "rules.md").read_text()


def test_the_migration_guide_shows_what_mslint_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """docs/migration.md's port, linted and fixed as the page shows (the verify outputs need
    MindSpore and are not checked here)."""
    page = (REPO / "docs" / "migration.md").read_text()
    for name in ("net.py", "train.py"):
        (tmp_path / name).write_text(page.split(f"`{name}`:\n\n```python\n", 1)[1].split("```", 1)[0])
    monkeypatch.chdir(tmp_path)
    for command in ("mslint check .", "mslint check . --diff"):
        shown = page.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
        code, out, err = run(*command.split()[1:], "--no-cache")
        assert (code, out + err) == (1, shown), command
