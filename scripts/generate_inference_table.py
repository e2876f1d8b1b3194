"""Write mslint/data/inference-<version>.json: what the installed MindSpore's type and shape
inference does with each form of :mod:`graph_syntax.inference` (joins, attributes, conversions,
outputs, refused APIs, Parameter names, names and Cells, methods of plain classes, deprecated
helpers), at each of its positions, in STRICT and in LAX.

Measured as the graph-syntax table is (:func:`generate_syntax_table.measure`: a forked process per
compile, the compiler's own evidence), in the same format. Run it in an environment with the
release to describe: ``python scripts/generate_inference_table.py``; ``--only PREFIX`` (repeatable)
re-measures those rows and keeps the others; ``--check`` only compares with the shipped table: the
whole table is checked in CI from the committed record of its compiles (:mod:`compile_record`),
compiling only the programs it does not hold; ``--recompile`` compiles those the record holds too.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from compile_record import CompileRecord, keep_or_check
from generate_syntax_table import RECOMPILE_HELP, compile_keys, measure, render_table
from graph_syntax.inference import POSITIONS, inference_forms
from mindspore_table import chosen_forms, installed_mindspore, outcome_summary, shipped_rows, write_or_check

_OBJECT_ID = re.compile(r"::\d+>")
"""An instance's id in a message (``<Net::139759697748688>``), which changes from run to run."""


def without_ids(cells: dict[str, Any]) -> dict[str, Any]:
    """``cells`` (rows, or the record's outcomes) with the ids of instances in their messages
    replaced, so that a re-measure compares."""
    cleaned: dict[str, Any] = json.loads(_OBJECT_ID.sub("::?>", json.dumps(cells)))
    return cleaned


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--only", action="append", default=[], metavar="PREFIX", help="re-measure these rows only")
    parser.add_argument("--check", action="store_true", help="compare with the shipped table, write nothing")
    parser.add_argument("--recompile", action="store_true", help=RECOMPILE_HELP)
    args = parser.parse_args(argv)
    version = installed_mindspore("generate_inference_table.py")
    if version is None:
        return 2
    chosen = chosen_forms(inference_forms(), args.only)
    if not chosen:
        return 2
    rows = shipped_rows(f"inference-{version}.json", partial=bool(args.only))
    record = CompileRecord("inference", version, read=not args.recompile)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mslint-inference-") as scratch:
        measured, compiles = measure(chosen, POSITIONS, Path(scratch), record=record)
    record.used = without_ids(record.used)  # else each re-measure rewrites the record's messages
    rows.update(without_ids(measured))
    summary = outcome_summary(measured, compiles, time.perf_counter() - started)
    print(summary, file=sys.stderr)
    table = write_or_check(f"inference-{version}.json", render_table(version, rows), summary)
    whole = compile_keys(record, list(inference_forms()), POSITIONS)
    return max(table, keep_or_check(record, whole, args.check, "python scripts/generate_inference_table.py"))


if __name__ == "__main__":
    sys.exit(main())
