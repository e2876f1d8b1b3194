"""A finding's identity that survives edits elsewhere in the file: rule, entry and source line.

Baselines and SARIF's ``partialFingerprints`` use it; the line number is deliberately left
out, so inserting or deleting lines above a finding does not change it.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from mslint.diagnostics import Diagnostic
from mslint.notebook import NotebookError, read_notebook
from mslint.source import read_regular_file, source_text


def fingerprint(diagnostic: Diagnostic) -> str:
    code = " ".join((source_line(diagnostic.path, diagnostic.line, diagnostic.cell) or "").split())
    key = "\0".join((diagnostic.symbol, diagnostic.entry or "", code))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]


def source_line(path: str, line: int, cell: int | None = None) -> str | None:
    """Line ``line`` of the file, or of its cell ``cell`` in a notebook (as checked: magics masked)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if cell is None:
        lines = _file_lines(path, stat.st_mtime_ns, stat.st_size)
    else:
        lines = _cell_lines(path, stat.st_mtime_ns, stat.st_size).get(cell, [])
    return lines[line - 1] if 0 < line <= len(lines) else None


@lru_cache(maxsize=16)
def _cell_lines(path: str, mtime_ns: int, size: int) -> dict[int, list[str]]:
    """The lines of each code cell of the notebook, by cell number."""
    try:
        return read_notebook(read_regular_file(Path(path))).cell_lines()
    except (OSError, NotebookError):
        return {}


@lru_cache(maxsize=256)
def _file_lines(path: str, mtime_ns: int, size: int) -> list[str]:
    """The file's lines; the modification time and size in the key keep long-lived processes current."""
    try:
        return source_text(Path(path)).split("\n")
    except (OSError, UnicodeDecodeError):
        return []
