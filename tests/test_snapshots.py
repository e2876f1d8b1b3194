"""The whole JSON output on the committed example trees, compared with the one committed beside.

A change of the analysis that should change no finding (a faster walk, a new index) must leave
every path, position, message, hint, entry and fix as it was. A change meant to alter findings
updates the snapshots, and the diff of ``tests/snapshots`` shows what it altered:
``pytest tests/test_snapshots.py --update-snapshots``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

import pytest

from tests.examples import RULES_DIR

REPO = RULES_DIR.parent
SNAPSHOTS = Path(__file__).parent / "snapshots"
TREES = [RULES_DIR, *sorted(p for p in (Path(__file__).parent / "data").iterdir() if p.is_dir())]


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_the_findings_on_a_committed_tree_are_those_committed(
    tree: Path,
    run: Callable[..., tuple[int, str, str]],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    monkeypatch.chdir(REPO)  # paths in the output relative to the checkout, wherever it is
    code, out, err = run("check", "--no-cache", "--format", "json", "--exit-zero", tree.relative_to(REPO).as_posix())
    assert code == 0, err
    snapshot = SNAPSHOTS / f"{tree.name}.json"
    if request.config.getoption("--update-snapshots"):
        snapshot.write_text(out)
    assert json.loads(out) == json.loads(snapshot.read_text()), f"{tree.name}: see the module's docstring"
