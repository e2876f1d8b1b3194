"""How mslint's time and memory grow with the tree: real trees, one zoo copied N times, one big file.

    python benchmarks/scale.py [--base PATH] [--copies 1 4 16] [--generated-mb 5] [--output docs/scale.md]

Each tree is checked cold (``mslint check --no-cache``) in a process of its own; the table gives
its wall time, peak memory (max RSS), and both per 100k lines. The copies are what a model-zoo
repository looks like: many projects side by side, each with the same module names
(``src/model.py``, ``src/utils.py``), so that name and call resolution across same-named
modules shows up as growth faster than the lines. ``--base`` is the tree copied (default:
``../shared/corpora/applications`` where it is, else mindcv, mindocr and mindyolo). The big
files are generated: one of many small Cells (a network written out layer by layer) and one
data table (a literal list of numbers), each ``--generated-mb`` large; beside them, the peak
memory of Python's own parser alone on the file, the floor of any analysis of its syntax tree.

A second process per tree runs the analysis phase by phase in-process and reports, after each
phase, its time, the memory held (current RSS) and the peak so far (max RSS).
Nothing here asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from corpora import released_package, zoo
from run import BIN, machine, run_once

REPO = Path(__file__).resolve().parent.parent
SHARED_APPLICATIONS = REPO.parent / "shared" / "corpora" / "applications"
PARTS = ("real", "copies", "generated")


@dataclass(frozen=True)
class Tree:
    name: str
    paths: list[Path]

    def files(self) -> list[Path]:
        return [f for p in self.paths for f in ([p] if p.is_file() else p.rglob("*.py"))]

    def lines(self) -> tuple[int, int]:
        files = self.files()
        return len(files), sum(len(f.read_bytes().splitlines()) for f in files)


@dataclass(frozen=True)
class Phase:
    name: str
    seconds: float
    held_mb: float
    """Resident memory at the end of the phase."""
    peak_mb: float
    """The most resident memory so far."""


@dataclass(frozen=True)
class Row:
    tree: str
    files: int
    lines: int
    size_mb: float
    seconds: float
    peak_mb: float
    phases: list[Phase]
    parse_alone_mb: float | None = None
    """Peak memory of ``ast.parse`` alone on the file (the generated files)."""


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


_CELL = """

class Block{0}(nn.Cell):
    def __init__(self, channels):
        super().__init__()
        self.dense = nn.Dense(channels, channels)
        self.relu = nn.ReLU()

    def construct(self, x):
        y = self.dense(x)
        return self.relu(y) + x
"""


def many_cells(megabytes: float, folder: Path) -> Tree:
    """One file of small Cells, ``megabytes`` of it."""
    parts = ["import mindspore.nn as nn\n"]
    size, index = 0, 0
    while size < megabytes * 1e6:
        parts.append(_CELL.format(index))
        size += len(parts[-1])
        index += 1
    path = folder / "many_cells.py"
    path.write_text("".join(parts))
    return Tree(f"one file, {index:,} small Cells", [path])


def data_table(megabytes: float, folder: Path) -> Tree:
    """One file holding a literal table of numbers, ``megabytes`` of it."""
    numbers = random.Random(1)
    rows = ["TABLE = [\n"]
    size = 0
    while size < megabytes * 1e6:
        rows.append("    [" + ", ".join(f"{numbers.random():.6f}" for _ in range(8)) + "],\n")
        size += len(rows[-1])
    path = folder / "data_table.py"
    path.write_text("".join([*rows, "]\n"]))
    return Tree(f"one data table, {len(rows) - 1:,} rows", [path])


def check(tree: Tree, repeat: int, cwd: Path, parse_alone: bool = False) -> Row:
    files, lines = tree.lines()
    size = sum(f.stat().st_size for f in tree.files()) / 2**20
    runs = [
        run_once([str(BIN / "mslint"), "check", "--no-cache", "--statistics", *map(str, tree.paths)], cwd)
        for _ in range(repeat)
    ]
    seconds, peak = min(r[0] for r in runs), max(r[1] for r in runs)
    alone = None
    if parse_alone:
        parse = "import ast, sys; ast.parse(open(sys.argv[1], 'rb').read())"
        alone = max(run_once([sys.executable, "-c", parse, str(tree.paths[0])], cwd).peak_mb for _ in range(repeat))
    row = Row(tree.name, files, lines, size, seconds, peak, phases_of(tree, cwd), alone)
    print(f"  {row.tree:<32} {files:6} files {lines:9} lines {seconds:8.2f} s {peak:7.0f} MB", flush=True)
    for phase in row.phases:
        print(f"    {phase.name:<40} {phase.seconds:8.2f} s {phase.held_mb:7.0f} MB held {phase.peak_mb:7.0f} MB peak")
    return row


def phases_of(tree: Tree, cwd: Path) -> list[Phase]:
    command = [sys.executable, __file__, "--phases-of", *map(str, tree.paths)]
    output = subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout
    return [Phase(**phase) for phase in json.loads(output)]


def measure_phases(paths: list[Path]) -> list[Phase]:
    """One cold analysis of ``paths``, in this process, phase by phase (as ``run.py``'s phases)."""
    started = time.perf_counter()
    import gc

    from mslint.discovery import discover
    from mslint.engine import analyze
    from mslint.model.module import ModuleInfo
    from mslint.model.project import Project
    from mslint.model.scope import graph_functions
    from mslint.model.walk import descendants
    from mslint.settings import Settings
    from mslint.source import source_text

    phases: list[Phase] = []

    def mark(name: str) -> None:
        nonlocal started
        phases.append(Phase(name, time.perf_counter() - started, _resident_mb(), _peak_mb()))
        started = time.perf_counter()

    mark("start-up (imports)")
    settings = Settings()
    files = discover(paths, settings).files
    gc.disable()  # as the engine does
    project = Project()
    for path in files:
        try:
            project.add(ModuleInfo.parse(path, source_text(path), checked=True))
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
            continue
    mark("read and parse")
    project.link_star_imports()
    for module in list(project.modules):
        descendants(module.tree)
    mark("index (star imports, tree walks)")
    graph_functions(project)
    mark("graph scope (entries, calls, value kinds)")
    analyze(project, settings)
    mark("rules (graph scope again, memoized)")
    return phases


def _resident_mb() -> float:
    statm = Path("/proc/self/statm")
    if not statm.is_file():
        return float("nan")
    return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", type=Path, action="append", help="tree to copy (repeatable)")
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--generated-mb", type=float, default=5.0, help="size of each generated big file")
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS), help="which tables to measure")
    parser.add_argument("--repeat", type=int, default=1, help="runs per tree (the best time is kept)")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "scale.md")
    parser.add_argument("--phases-of", type=Path, nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phases_of:
        print(json.dumps([asdict(phase) for phase in measure_phases(args.phases_of)]))
        return 0
    base = args.base or ([SHARED_APPLICATIONS] if SHARED_APPLICATIONS.is_dir() else zoo())
    real: list[Row] = []
    copied: list[Row] = []
    generated: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="mslint-scale-") as scratch:
        work = Path(scratch)
        if "real" in args.parts:
            trees = [
                Tree("mindformers 2.1.0", [released_package("mindformers", "2.1.0")]),
                Tree("mindcv, mindocr, mindyolo", zoo()),
            ]
            mindspore = installed_mindspore()
            if mindspore is not None:
                trees.insert(0, Tree("the installed mindspore package", [mindspore]))
            real = [check(tree, args.repeat, work) for tree in trees]
        if "copies" in args.parts:
            copied = [check(side_by_side(base, n, work / f"x{n}"), args.repeat, work) for n in sorted(args.copies)]
        if "generated" in args.parts:
            generated = [
                check(make(args.generated_mb, work), args.repeat, work, parse_alone=True)
                for make in (many_cells, data_table)
            ]
    args.output.write_text(render(real, copied, generated, base))
    print(f"\nwrote {args.output}")
    return 0


def render(real: list[Row], copied: list[Row], generated: list[Row], base: list[Path]) -> str:
    def line(row: Row, growth: str = "") -> str:
        per = 100_000 / max(1, row.lines)
        return (
            f"| {row.tree} | {row.files:,} | {row.lines:,} | {row.seconds:.2f} | {row.peak_mb:.0f} "
            f"| {row.seconds * per:.2f} | {row.peak_mb * per:.0f} |{growth}"
        )

    header = "| tree | files | lines | cold (s) | peak MB | s per 100k lines | MB per 100k lines |"
    lines = [
        "# Scale",
        "",
        "Measured by `python benchmarks/scale.py`: `mslint check --no-cache` on each tree, one process",
        "each (best time of the runs, peak memory = max RSS).",
        "",
        f"Machine: {machine()}.",
    ]
    if real:
        lines += ["", "## Real trees", "", header, "|---|---|---|---|---|---|---|", *(line(r) for r in real)]
    if copied:
        first = copied[0]
        lines += [
            "",
            f"## Many projects side by side: copies of {', '.join(p.name for p in base)}",
            "",
            "Linear growth keeps the time and the memory per 100k lines flat; the last columns are the",
            "time and the peak memory relative to the first row, against its lines relative to the first row.",
            "",
            header + " time / lines growth | memory / lines growth |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for row in copied:
            lines.append(
                line(
                    row,
                    f" {row.seconds / first.seconds:.2f}x / {row.lines / first.lines:.2f}x "
                    f"| {row.peak_mb / first.peak_mb:.2f}x / {row.lines / first.lines:.2f}x |",
                )
            )
    if generated:
        lines += [
            "",
            "## One big generated file",
            "",
            "Peak memory against the file's size, and the peak of Python's parser alone on the file",
            "(`ast.parse`, in a process of its own): the syntax tree of a file of many small objects",
            "takes a hundred times its text.",
            "",
            "| file | MB | lines | cold (s) | peak MB | peak / file size | `ast.parse` alone: peak MB |",
            "|---|---|---|---|---|---|---|",
            *(
                f"| {r.tree} | {r.size_mb:.1f} | {r.lines:,} | {r.seconds:.2f} | {r.peak_mb:.0f} "
                f"| {r.peak_mb / r.size_mb:.0f}x | {r.parse_alone_mb or 0:.0f} |"
                for r in generated
            ),
        ]
    rows = [*real, *copied, *generated]
    if rows:
        names = [phase.name for phase in rows[0].phases]
        lines += [
            "",
            "## Time and memory per phase",
            "",
            "One cold analysis in-process, phase by phase: seconds, resident memory at the phase's end,",
            "peak so far (MB). The whole tree is analysed as one project here, to show where each phase's",
            "memory goes; `mslint check` analyses it component by component (files joined by imports) and",
            "frees each component's trees before the next, so its peak above is that of the largest one.",
            "",
            "| tree | " + " | ".join(names) + " |",
            "|---|" + "---|" * len(names),
            *(
                f"| {row.tree} | "
                + " | ".join(f"{p.seconds:.2f} s, {p.held_mb:.0f} / {p.peak_mb:.0f}" for p in row.phases)
                + " |"
                for row in rows
            ),
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
