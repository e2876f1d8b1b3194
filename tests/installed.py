"""The MindSpore a ``measurement`` test re-measures: the installed one, against the table mslint
ships for it. The verify extra pins the release the tables are measured on; a checkout with another
release installed has nothing to compare with, and its measurements fail (a skip would pass CI with a
wrong MindSpore installed) saying what to do."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import pytest

from tests.extras import extra_requirements


def shipped_for_installed(table: Path) -> Path:
    """``table``, the shipped table of the installed MindSpore; fails the test where there is none."""
    if not table.is_file():
        (pinned,) = (r for r in extra_requirements("verify") if r.startswith("mindspore"))
        pytest.fail(
            f"mslint ships no {table.name} for the installed MindSpore {metadata.version('mindspore')}: "
            f"install the verify extra's {pinned}, or deselect the re-measurements with -m 'not measurement'"
        )
    return table
