"""How mslint's time and memory grow with the tree: real trees, and one zoo copied N times.

    python benchmarks/scale.py [--base PATH] [--copies 1 4 16] [--output docs/scale.md]

Each tree is checked cold (``mslint check --no-cache``) in a process of its own; the table gives
its wall time, peak memory (max RSS), and both per 100k lines. The copies are what a model-zoo
repository looks like: many projects side by side, each with the same module names
(``src/model.py``, ``src/utils.py``), so that name and call resolution across same-named
modules shows up as growth faster than the lines. ``--base`` is the tree copied (default:
``../shared/corpora/applications`` where it is, else mindcv, mindocr and mindyolo).
Nothing here asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from corpora import released_package, zoo
from run import BIN, machine, run_once

REPO = Path(__file__).resolve().parent.parent
SHARED_APPLICATIONS = REPO.parent / "shared" / "corpora" / "applications"


@dataclass(frozen=True)
class Tree:
    name: str
    paths: list[Path]

    def lines(self) -> tuple[int, int]:
        files = [f for p in self.paths for f in p.rglob("*.py")]
        return len(files), sum(len(f.read_bytes().splitlines()) for f in files)


@dataclass(frozen=True)
class Row:
    tree: str
    files: int
    lines: int
    seconds: float
    peak_mb: float


def installed_mindspore() -> Path | None:
    spec = importlib.util.find_spec("mindspore")
    return Path(next(iter(spec.submodule_search_locations))) if spec and spec.submodule_search_locations else None


def side_by_side(base: list[Path], count: int, folder: Path) -> Tree:
    """``count`` copies of ``base``, each a project folder of its own."""
    paths = []
    for index in range(count):
        project = folder / f"project{index}"
        for source in base:
            if not (project / source.name).exists():
                shutil.copytree(source, project / source.name)
        paths.append(project)
    return Tree(f"{count}x side by side", paths)


def check(tree: Tree, repeat: int, cwd: Path) -> Row:
    files, lines = tree.lines()
    runs = [
        run_once([str(BIN / "mslint"), "check", "--no-cache", "--statistics", *map(str, tree.paths)], cwd)
        for _ in range(repeat)
    ]
    seconds, peak = min(r[0] for r in runs), max(r[1] for r in runs)
    row = Row(tree.name, files, lines, seconds, peak)
    print(f"  {row.tree:<28} {files:6} files {lines:9} lines {seconds:8.2f} s {peak:7.0f} MB", flush=True)
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, action="append", help="tree to copy (repeatable)")
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--repeat", type=int, default=1, help="runs per tree (the best time is kept)")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "scale.md")
    args = parser.parse_args()
    base = args.base or ([SHARED_APPLICATIONS] if SHARED_APPLICATIONS.is_dir() else zoo())
    rows = []
    with tempfile.TemporaryDirectory(prefix="mslint-scale-") as scratch:
        work = Path(scratch)
        real = [
            Tree("mindformers 2.1.0", [released_package("mindformers", "2.1.0")]),
            Tree("mindcv, mindocr, mindyolo", zoo()),
        ]
        mindspore = installed_mindspore()
        if mindspore is not None:
            real.insert(0, Tree("the installed mindspore package", [mindspore]))
        rows += [check(tree, args.repeat, work) for tree in real]
        copied = [check(side_by_side(base, n, work / f"x{n}"), args.repeat, work) for n in sorted(args.copies)]
    args.output.write_text(render(rows, copied, base))
    print(f"\nwrote {args.output}")
    return 0


def render(rows: list[Row], copied: list[Row], base: list[Path]) -> str:
    def line(row: Row, growth: str = "") -> str:
        per = 100_000 / max(1, row.lines)
        return (
            f"| {row.tree} | {row.files:,} | {row.lines:,} | {row.seconds:.2f} | {row.peak_mb:.0f} "
            f"| {row.seconds * per:.2f} | {row.peak_mb * per:.0f} |{growth}"
        )

    header = "| tree | files | lines | cold (s) | peak MB | s per 100k lines | MB per 100k lines |"
    first = copied[0] if copied else None
    lines = [
        "# Scale",
        "",
        "Measured by `python benchmarks/scale.py`: `mslint check --no-cache` on each tree, one process",
        "each (best time of the runs, peak memory = max RSS).",
        "",
        f"Machine: {machine()}.",
        "",
        "## Real trees",
        "",
        header,
        "|---|---|---|---|---|---|---|",
        *(line(r) for r in rows),
        "",
        f"## Many projects side by side: copies of {', '.join(p.name for p in base)}",
        "",
        "Linear growth keeps the time and the memory per 100k lines flat; the last column is the",
        "time relative to one copy, against the copies' lines relative to one copy.",
        "",
        header + " time / lines growth |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in copied:
        assert first is not None
        growth = f" {row.seconds / first.seconds:.2f}x / {row.lines / first.lines:.2f}x |"
        lines.append(line(row, growth))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
