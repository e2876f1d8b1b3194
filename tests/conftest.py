from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Callable

import pytest

from mslint.cli import main
from tests.example_record import UPDATE_OPTION

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
    parser.addoption(
        UPDATE_OPTION,
        action="store_true",
        help="write the compiler's facts on the rules/ examples this run compiled to tests/records/",
    )


_START_FIRST = ("measurement", "mindspore", "network")
"""Markers of the long tests (compiles, installs), by how long they take: pytest-xdist hands tests
out in collection order, so a long test collected last would run alone at the end of a parallel
run while the other workers wait."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    refuse_measurements_without_mindspore(items)

    def rank(item: pytest.Item) -> int:
        marks = {mark.name for mark in item.iter_markers()}
        return next((i for i, name in enumerate(_START_FIRST) if name in marks), len(_START_FIRST))

    items.sort(key=rank)


def refuse_measurements_without_mindspore(items: list[pytest.Item]) -> None:
    """A ``measurement`` measures MindSpore: the command that runs without MindSpore deselects
    ``mindspore`` tests only, so a measurement not marked so would run there and fail."""
    unmarked = [
        item.nodeid
        for item in items
        if {"measurement"} == {m.name for m in item.iter_markers()} & {"measurement", "mindspore"}
    ]
    if unmarked:
        raise pytest.UsageError(f"a measurement test must be marked mindspore too: {', '.join(unmarked)}")
