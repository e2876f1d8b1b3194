"""Check that every way of running ``mslint check`` gives the same findings on real trees.

    python scripts/check_agreement.py TREE [TREE ...]

Runs each tree without the cache serially (``--jobs 1``) and with the default ``--jobs``,
cold with an empty cache, warm from it, and with ``--jobs 2``, and compares the JSON. Exits 1
on the first difference. CI runs it on the shared real-code corpus; the test suite does the
same on the committed trees.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WAYS = {
    "--no-cache --jobs 1": ["--no-cache", "--jobs", "1"],
    "--no-cache": ["--no-cache"],
    "cold": [],
    "warm": [],
    "--jobs 2": ["--jobs", "2"],
}


def findings(tree: Path, options: list[str], cache: str) -> tuple[str, float]:
    command = [sys.executable, "-m", "mslint", "check", str(tree), "--format", "json", "--fail-on", "error", *options]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "MSLINT_CACHE_DIR": cache})
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited with {done.returncode}: {done.stderr.strip()}")
    return done.stdout, time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    trees = parser.parse_args().trees
    for tree in trees:
        with tempfile.TemporaryDirectory(prefix="mslint-agreement-") as cache:
            outputs = {way: findings(tree, options, cache) for way, options in WAYS.items()}
        truth = outputs["--no-cache --jobs 1"][0]
        timings = ", ".join(f"{way} {seconds:.2f} s" for way, (_, seconds) in outputs.items())
        differing = [way for way, (text, _) in outputs.items() if text != truth]
        print(f"{tree}: {len(json.loads(truth))} findings; {timings}")
        if differing:
            print(f"{tree}: {', '.join(differing)} differ from --no-cache --jobs 1", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
