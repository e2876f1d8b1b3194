"""Shared by the scripts that read tables out of an installed MindSpore: write, or only compare."""

from __future__ import annotations

import sys
from pathlib import Path

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
