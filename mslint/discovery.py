"""Which files a run checks: the paths given, with folders walked for Python files."""

from __future__ import annotations

import os
from pathlib import Path

from mslint.settings import Settings


class UsageError(Exception):
    """A bad command line (a missing path, an unknown rule); one line, exit code 2."""


def discover(paths: list[Path], settings: Settings) -> list[Path]:
    """Python files under ``paths``, sorted, excluded ones left out; files named explicitly always count."""
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_file():
            found[path] = None
        elif path.is_dir():
            for folder, subfolders, files in os.walk(path):
                subfolders[:] = sorted(d for d in subfolders if not settings.is_excluded(Path(folder, d)))
                for name in sorted(files):
                    candidate = Path(folder, name)
                    if name.endswith((".py", ".pyi")) and not settings.is_excluded(candidate):
                        found[candidate] = None
        else:
            raise UsageError(f"{path}: no such file or directory")
    return list(found)
