"""Measure every entry of mslint/data/pytorch-differences.json on the installed MindSpore.

Each entry's ``ran`` is a small program; it runs in a process of its own (a failed graph
compile leaves state behind) and what it printed is the entry's ``printed``. Without
``--check`` the file is rewritten with the new outputs and the installed release; with it, the
script only says which entries print something else (the test suite runs it against the
MindSpore it installs).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from mindspore_table import OUTPUT, write_or_check

NAME = "pytorch-differences.json"


def printed(program: str) -> str:
    """The last line ``program`` printed, or its error's last line. It runs from a file: graph
    mode compiles only code it can read the source of."""
    with tempfile.TemporaryDirectory(prefix="mslint-measure-") as folder:
        path = Path(folder, "measure.py")
        path.write_text(program, encoding="utf-8")
        result = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=folder, timeout=300)
    lines = (result.stdout if result.returncode == 0 else result.stderr).strip().splitlines()
    return lines[-1].strip() if lines else ""


def main() -> int:
    import mindspore

    table: dict[str, Any] = json.loads((OUTPUT / NAME).read_text(encoding="utf-8"))
    table["mindspore"] = mindspore.__version__
    for entry in [*table["flagged"], *table["not_flagged"]]:
        entry["printed"] = printed(entry["ran"])
    text = json.dumps(table, indent=2, ensure_ascii=False) + "\n"
    return write_or_check(NAME, text, f"{len(table['flagged'])} flagged, {len(table['not_flagged'])} not flagged")


if __name__ == "__main__":
    sys.exit(main())
