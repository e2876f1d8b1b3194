"""Where ``check`` gains from processes: ``--jobs 1`` against ``--jobs N`` on growing trees.

    python benchmarks/parallel.py TREE [--repeat 5] [--jobs N]

The projects of TREE (its folders) are taken smallest first, and each step checks the
smallest ones whose source passes the next size (25 kB, 50 kB, ... then all of TREE) with
``--no-cache --jobs 1``, ``--jobs N`` (default: the cores this process may run on) and the
default ``--jobs``, each run a fresh process, the three in turn. It prints one row per step:
the median wall seconds of each and the ratio parallel / serial. ``PARALLEL_FROM_BYTES`` in
mslint/workers.py is the size from which ``--jobs N`` was faster at every step measured
(docs/performance.md#parallel-by-default). Nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

STEPS = (25_000, 50_000, 100_000, 200_000, 400_000, 800_000, 1_600_000, 3_200_000)


def source_bytes(project: Path) -> int:
    return sum(p.stat().st_size for p in project.rglob("*.py"))


def trees(root: Path) -> list[tuple[int, list[Path]]]:
    """(source bytes, projects) for each step: the smallest projects that pass it, then all."""
    sized = sorted((source_bytes(p), p.name, p) for p in root.iterdir() if p.is_dir())
    sized = [s for s in sized if s[0] > 0]
    steps, chosen, total = [], [], 0
    pending = list(STEPS)
    for size, _, project in sized:
        chosen.append(project)
        total += size
        if pending and total >= pending[0]:
            steps.append((total, list(chosen)))
            while pending and total >= pending[0]:
                pending.pop(0)
    if not steps or steps[-1][0] != total:
        steps.append((total, chosen))
    return steps


def wall(command: list[str]) -> float:
    started = time.perf_counter()
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if completed.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} failed ({completed.returncode}): {completed.stderr.decode()[-500:]}")
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    check = [sys.executable, "-m", "mslint", "check", "--no-cache", "--quiet"]
    variants = {"--jobs 1": ["--jobs", "1"], f"--jobs {args.jobs}": ["--jobs", str(args.jobs)], "default": []}
    print(f"{len(os.sched_getaffinity(0))} cores; load {os.getloadavg()[0]:.1f}; median of {args.repeat} runs")
    print(f"| source kB | files | {' | '.join(variants)} | --jobs {args.jobs} / --jobs 1 | default / --jobs 1 |")
    print("|---|---|---|---|---|---|---|")
    for size, projects in trees(args.tree):
        files = sum(1 for p in projects for _ in p.rglob("*.py"))
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.repeat):
            for name, options in variants.items():
                times[name].append(wall([*check, *options, *map(str, projects)]))
        medians = [statistics.median(t) for t in times.values()]
        serial, parallel, default = medians
        print(
            f"| {size / 1000:.0f} | {files} | {' | '.join(f'{m:.2f}' for m in medians)} "
            f"| {parallel / serial:.2f}x | {default / serial:.2f}x |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
