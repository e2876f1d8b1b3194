from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from mslint.cli import main

# The language server's test client (pytest-lsp 1.x) needs Python 3.10: pyproject.toml installs
# it there only, and its tests are not collected before.
collect_ignore = ["test_language_server.py"] if sys.version_info < (3, 10) else []


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], Path]:
    """Write a dedented file under the test's temporary folder and return its path."""

    def write_file(name: str, text: str) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
        return path

    return write_file


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., tuple[int, str, str]]:
    """Run the mslint command line in-process: (exit code, stdout, stderr)."""

    def run_cli(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run_cli


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-snapshots",
        action="store_true",
        help="write the findings of the committed example trees to tests/snapshots (after a wanted change)",
    )
