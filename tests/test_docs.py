"""Generated files stay up to date: the rule pages in docs/, and the API tables read from MindSpore."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.examples import REPO

GENERATORS = [
    "generate_rule_docs.py",  # docs/rules.md and docs/rules/*.md from the rules and rules/
    # mslint/data/jit-forbidden-*.json from MindSpore's own registry
    pytest.param("generate_jit_forbidden.py", marks=pytest.mark.mindspore),
    # mslint/data/api-*.json from the installed MindSpore
    pytest.param("generate_api_table.py", marks=pytest.mark.mindspore),
]


@pytest.mark.parametrize("script", GENERATORS)
def test_generated_files_are_up_to_date(script: str) -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / script), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]


def test_every_rule_page_is_linked_from_the_index() -> None:
    index = (REPO / "docs" / "rules.md").read_text()
    pages = sorted((REPO / "docs" / "rules").glob("*.md"))
    assert pages and all(f"(rules/{page.name})" in index for page in pages)
