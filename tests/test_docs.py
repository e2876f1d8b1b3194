"""Generated files stay up to date: the rule pages in docs/, and the API tables read from MindSpore."""

from __future__ import annotations

import subprocess
import sys

from tests.examples import REPO


def test_rule_pages_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_rule_docs.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_rule_page_is_linked_from_the_index() -> None:
    index = (REPO / "docs" / "rules.md").read_text()
    pages = sorted((REPO / "docs" / "rules").glob("*.md"))
    assert pages and all(f"(rules/{page.name})" in index for page in pages)


def test_forbidden_api_table_is_mindspores_own() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_jit_forbidden.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]


def test_api_table_is_the_installed_mindspores() -> None:
    result = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "generate_api_table.py"), "--check"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
