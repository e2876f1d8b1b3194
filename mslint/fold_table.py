"""The conditions on graph constants that MindSpore folds, measured per release and shipped as
``mslint/data/folds-<release>.json`` (written by ``scripts/generate_fold_table.py``; applied to
tests by :mod:`mslint.model.folds`).

A row is a condition (``is-none``) on a constant of one source (``self``, ``subcell``, ``input``,
``module``), with a value that makes it true or false, and a dead branch that the compiler rejects
at one stage: a call of an undefined name (the parser) or of a missing attribute (inference). Its
cells say, per position (``if``, ``ifexp``, ``while``) and syntax level, whether the compile
succeeded: ``ok`` where the dead branch was left out.
"""

from __future__ import annotations

import json
from functools import cache

from mslint.mindspore_tables import DATA
from mslint.syntax_table import syntax_release

PARSE, INFERENCE = "parse", "inference"
"""The stages that may leave a branch out: what the parser never reads, what inference never evaluates."""
_STAGE_OF_DEAD_CODE = {"name": PARSE, "attribute": INFERENCE}
"""What the table's dead branch calls, and the stage whose folding lets it compile."""

FoldedForms = frozenset[tuple[str, str, str, str]]
"""``(condition, source, position, stage)`` of the forms the compiler folds."""


@cache
def folded_forms(release: str | None = None) -> FoldedForms:
    """``(condition, source, position, stage)`` where every row of the table folds: each truth
    measured, in STRICT and in LAX (a ``while``'s: also as an ``if``'s test)."""
    chosen = syntax_release(release, "folds")
    rows = json.loads((DATA / f"folds-{chosen}.json").read_text(encoding="utf-8"))["rows"]
    folds: dict[tuple[str, str, str, str], bool] = {}
    for row, measured in rows.items():
        if measured["family"] != "fold":
            continue  # a control row
        condition, rest = row.removeprefix("fold.").split(".", 1)
        source, _truth, dead = rest.split("/")
        for position, levels in measured["outcomes"].items():
            key = (condition, source, position, _STAGE_OF_DEAD_CODE[dead])
            folds[key] = folds.get(key, True) and all(cell[0] == "ok" for cell in levels.values())
    # A `while` is measured false only (a true one never ends): its test folds where it also folds,
    # true and false, as the test of an `if`.
    return frozenset(
        key for key, folded in folds.items() if folded and (key[2] != "while" or folds.get((*key[:2], "if", key[3])))
    )
