"""The per-Cell cost of ``mslint verify``: a generated batch of small Cells, verified with ``--all``.

    python benchmarks/verify_batch.py [--cells 100] [--jobs 2] [--no-compare] [--json OUT]

One file holds ``--cells`` small, clean Cells (copies of a few kinds: Dense, Conv2d with
BatchNorm, an MLP, a residual block), each with static input specs on its class line, so that
every one is compiled at both syntax levels and run in graph mode and in PyNative (the
comparison). The report gives the wall time, seconds per Cell, and where the compiles' time
went: the compiler's own time (``compile_s``), the comparison, and the rest of each compile's
process (fork, import of the file, building the Cell, reading the dumps). Nothing here asserts
a time: it reports.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from run import BIN

KINDS = {
    "Dense": ("float32[2,8]", "self.dense = nn.Dense(8, 4)", "return self.dense(x)"),
    "ConvBn": (
        "float32[1,3,8,8]",
        "self.conv = nn.Conv2d(3, 4, 3)\n        self.bn = nn.BatchNorm2d(4)",
        "return ops.relu(self.bn(self.conv(x)))",
    ),
    "Mlp": (
        "float32[2,8]",
        "self.fc1 = nn.Dense(8, 16)\n        self.fc2 = nn.Dense(16, 4)",
        "return self.fc2(ops.relu(self.fc1(x)))",
    ),
    "Residual": ("float32[2,8]", "self.dense = nn.Dense(8, 8)", "return x + ops.tanh(self.dense(x))"),
}


def batch_source(cells: int) -> str:
    kinds = list(KINDS.items())
    parts = ["from mindspore import nn, ops\n"]
    for index in range(cells):
        kind, (inputs, init, body) = kinds[index % len(kinds)]
        parts.append(
            f"\n\nclass {kind}{index}(nn.Cell):  # mslint: inputs={inputs}\n"
            f"    def __init__(self):\n        super().__init__()\n        {init}\n\n"
            f"    def construct(self, x):\n        {body}\n"
        )
    return "".join(parts)


def summarize(report: dict[str, Any], cells: int, wall: float) -> dict[str, Any]:
    compiles = report["compiles"]

    def total(key: str) -> float:
        return sum(float(c.get(key) or 0) for c in compiles)

    comparison = sum(float((c.get("comparison") or {}).get("seconds") or 0) for c in compiles)
    return {
        "cells": cells,
        "wall_s": round(wall, 1),
        "s_per_cell": round(wall / max(1, cells), 3),
        "compiles": len(compiles),
        "compiles_by_status": dict(collections.Counter(c["status"] for c in compiles)),
        "comparisons": dict(collections.Counter((c.get("comparison") or {}).get("status", "none") for c in compiles)),
        "mslint_seconds": report["seconds"],
        "per_cell_in_compile_processes": {
            "compile_s": round(total("compile_s") / cells, 3),
            "comparison_s": round(comparison / cells, 3),
            "rest_of_the_process_s": round((total("wall_s") - total("compile_s") - comparison) / cells, 3),
            "process_wall_s": round(total("wall_s") / cells, 3),
        },
        "findings": len(report["findings"]),
        "compiler_only": len(report["compiler_only"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-compare", action="store_true", help="pass --no-compare to mslint verify")
    parser.add_argument("--json", type=Path, help="write the summary and mslint's JSON report here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mslint-batch-") as scratch:
        cells = Path(scratch, "cells.py")
        cells.write_text(batch_source(args.cells))
        command = [str(BIN / "mslint"), "verify", str(cells), "--all", "--format", "json", "--jobs", str(args.jobs)]
        command += ["--no-compare"] if args.no_compare else []
        started = time.perf_counter()
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
        wall = time.perf_counter() - started
    if done.returncode not in (0, 1):
        sys.exit(f"mslint verify failed with status {done.returncode}: {done.stderr.strip()[-500:]}")
    report = json.loads(done.stdout)
    summary = summarize(report, args.cells, wall)
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "report": report}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
