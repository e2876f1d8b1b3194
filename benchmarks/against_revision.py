"""This checkout's mslint against the one of an earlier revision, on one corpus, side by side.

    python benchmarks/against_revision.py REVISION [--corpus PATH] [--rounds 15]

The revision's ``mslint`` package is taken with ``git archive`` into a temporary folder; both
run ``mslint check --no-cache --jobs 1`` on the corpus (corpus A, the ``nn/`` package of the
installed mindspore wheel, by default) as fresh processes, from an empty folder (no project
settings), in alternating order round by round, so that drift on a shared machine hits both
alike. Reported: the median and minimum wall and CPU seconds of each, and the medians of the
per-round ratios. CPU seconds (user and system, of the process) are the figure to compare on
a machine others use: a loaded core stretches wall time, much less the work done.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from run import REPO, Run, corpus_a, run_once


def checkout_of(revision: str, folder: Path) -> Path:
    """The ``mslint`` package of ``revision``, extracted under ``folder``: the folder to import it from."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision, "mslint"], cwd=REPO, capture_output=True, check=False
    )
    if archive.returncode != 0:
        sys.exit(f"git archive {revision}: {archive.stderr.decode().strip()}")
    folder.mkdir()
    archive_path = folder / "mslint.tar"
    archive_path.write_bytes(archive.stdout)
    with tarfile.open(archive_path) as tar:
        if sys.version_info >= (3, 12):  # the "data" filter: no path out of the folder, no links
            tar.extractall(folder, filter="data")
        else:
            tar.extractall(folder)  # our own repository's archive
    return folder


def run(source: Path, corpus: Path, cwd: Path) -> Run:
    """One ``mslint check`` of ``corpus``, importing mslint from ``source``: findings or none, never
    an internal error (exit 2)."""
    command = [sys.executable, "-m", "mslint", "check", "--no-cache", "--jobs", "1", str(corpus)]
    environment = {**os.environ, "PYTHONPATH": str(source)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return run_once(command, cwd, environment, accepted=(0, 1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("revision", help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("--corpus", type=Path, help="the tree to check (default: corpus A)")
    parser.add_argument("--rounds", type=int, default=15, help="runs of each (default 15)")
    args = parser.parse_args()
    corpus = args.corpus or corpus_a()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        sources = {"this checkout": REPO, args.revision: checkout_of(args.revision, folder / "revision")}
        for source in sources.values():  # both start from byte-compiled modules
            compileall.compile_dir(source / "mslint", quiet=1)
        empty = folder / "empty"
        empty.mkdir()
        walls: dict[str, list[float]] = {name: [] for name in sources}
        cpus: dict[str, list[float]] = {name: [] for name in sources}
        names = list(sources)
        for round_number in range(args.rounds):
            for name in names if round_number % 2 == 0 else names[::-1]:
                measured = run(sources[name], corpus, empty)
                walls[name].append(measured.wall)
                cpus[name].append(measured.cpu)
    print(f"corpus: {corpus}; {args.rounds} rounds; Python {sys.version.split()[0]}; {os.cpu_count()} cores")
    for name in names:
        print(
            f"{name:>14}: wall median {statistics.median(walls[name]):.3f} s min {min(walls[name]):.3f} s; "
            f"CPU median {statistics.median(cpus[name]):.3f} s min {min(cpus[name]):.3f} s"
        )
    head, earlier = names
    for label, series in (("wall", walls), ("CPU", cpus)):
        ratios = sorted(h / e for h, e in zip(series[head], series[earlier]))
        print(
            f"{label} ratio this checkout / {earlier}, per round: median {statistics.median(ratios):.3f}, "
            f"min {ratios[0]:.3f}, max {ratios[-1]:.3f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
