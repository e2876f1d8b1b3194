"""The rule pages in docs/ are generated from the rules and their examples, and kept up to date."""

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
