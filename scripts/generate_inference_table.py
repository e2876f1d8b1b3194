"""Write mslint/data/inference-<version>.json: what the installed MindSpore's type and shape
inference does with each form of :mod:`graph_syntax.inference` (joins, attributes, conversions,
outputs, refused APIs, Parameter names, names and Cells, methods of plain classes, deprecated
helpers), at each of its positions, in STRICT and in LAX.

Measured as the graph-syntax table is (:func:`generate_syntax_table.measure`: a forked process per
compile, the compiler's own evidence), in the same format. Run it in an environment with the
release to describe: ``python scripts/generate_inference_table.py``; ``--check`` only compares with
the shipped table.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from generate_syntax_table import measure, render_table
from graph_syntax.inference import POSITIONS, inference_forms
from mindspore_table import installed_mindspore, outcome_summary, write_or_check

_OBJECT_ID = re.compile(r"::\d+>")
"""An instance's id in a message (``<Net::139759697748688>``), which changes from run to run."""


def without_ids(rows: dict[str, Any]) -> dict[str, Any]:
    """The rows with the ids of instances in their messages replaced, so that a re-measure compares."""
    for row in rows.values():
        for levels in row["outcomes"].values():
            for level, cell in levels.items():
                levels[level] = [*cell[:2], _OBJECT_ID.sub("::?>", cell[2])] if len(cell) > 2 else cell
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.parse_args(argv)
    version = installed_mindspore("generate_inference_table.py")
    if version is None:
        return 2
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mslint-inference-") as scratch:
        rows, compiles = measure(list(inference_forms()), POSITIONS, Path(scratch))
    rows = without_ids(rows)
    summary = outcome_summary(rows, compiles, time.perf_counter() - started)
    print(summary, file=sys.stderr)
    return write_or_check(f"inference-{version}.json", render_table(version, rows), summary)


if __name__ == "__main__":
    sys.exit(main())
