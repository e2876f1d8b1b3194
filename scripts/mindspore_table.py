"""Shared by the scripts that read tables out of an installed MindSpore: write, or only compare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

OUTPUT = Path(__file__).resolve().parent.parent / "mslint" / "data"


def write_or_check(name: str, text: str, summary: str) -> int:
    """Write ``mslint/data/<name>``; with ``--check`` on the command line, only say whether it matches."""
    path = OUTPUT / name
    if "--check" in sys.argv[1:]:
        current = path.read_text() if path.is_file() else ""
        print(f"{name} {'matches' if current == text else 'differs from'} the installed MindSpore")
        return 0 if current == text else 1
    path.write_text(text)
    print(f"wrote {name}: {summary}")
    return 0


def installed_mindspore(script: str) -> str | None:
    """The version of the installed MindSpore; None, after saying so, where none is installed."""
    try:
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        print(f"{script}: MindSpore is not installed in this environment", file=sys.stderr)
        return None


def outcome_summary(rows: Mapping[str, Any], compiles: int, seconds: float) -> str:
    """How many rows and compiles a measurement made, and its outcomes by kind (``error 12, ...``)."""
    counts = Counter(c[0] for row in rows.values() for levels in row["outcomes"].values() for c in levels.values())
    outcomes = ", ".join(f"{kind} {n}" for kind, n in counts.most_common())
    return f"{len(rows)} rows, {compiles} compiles in {seconds:.0f} s; {outcomes}"


def capture_table(mode: str, version: str, rows: Mapping[str, Any]) -> str:
    """A capture mode's table as compact, deterministic JSON, a row per line."""
    head = json.dumps({"capture_mode": mode, "mindspore": version}, sort_keys=True)
    lines = [
        f"{json.dumps(key)}:{json.dumps(rows[key], sort_keys=True, separators=(',', ':'))}" for key in sorted(rows)
    ]
    return head[:-1] + ',"rows":{\n' + ",\n".join(lines) + "\n}}\n"


class ChildRun(NamedTuple):
    """What one measuring child printed as ``RESULT {json}``, or why it printed nothing."""

    result: dict[str, Any] | None
    timed_out: bool = False
    last_error: str = ""
    """The last line the child wrote on stderr, where it printed no result."""


def run_child(command: list[str], cwd: Path, timeout: float) -> ChildRun:
    """Run one measurement in a process of its own (MindSpore's log quiet) and read its result line."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=timeout, cwd=cwd, env={**os.environ, "GLOG_v": "3"}
        )
    except subprocess.TimeoutExpired:
        return ChildRun(None, timed_out=True)
    line = next((x for x in done.stdout.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        return ChildRun(None, last_error=(done.stderr.strip().splitlines() or [""])[-1])
    return ChildRun(json.loads(line[len("RESULT ") :]))
