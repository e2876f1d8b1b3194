"""The files git ignores, which a folder walk leaves out as ruff's does (``respect-gitignore``).

Inside a git repository (a folder above holds ``.git``), the ``.gitignore`` of every folder from
the file's up to the filesystem root counts, and ``.git/info/exclude``; ``.ignore`` files (ripgrep's
and ruff's) count anywhere. Patterns follow git's rules (through pathspec): a deeper file wins over
a shallower one, and within a file the last matching pattern wins (``!keep.py`` re-includes).
Git's global excludes file (``core.excludesFile``) is not read.

An ignore file comes with the tree being checked, so it is read as untrusted input: only a regular
file of at most :data:`LARGEST_IGNORE_FILE` bytes counts (a FIFO would block the walk, a link to
``/dev/zero`` would never end), and its patterns are matched by RE2 (pathspec's ``re2`` backend,
linear in the name's length) where Python's own expressions backtrack: ``*a*a*a*a*a*a*b`` against
a long name took minutes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from mslint.source import read_regular_file

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

_Chain = tuple[tuple[Path, "GitIgnoreSpec"], ...]

LARGEST_IGNORE_FILE = 4 * 1024 * 1024
"""Bytes; git's own ignore files are a few kilobytes, a larger one is not read."""


class IgnoreFiles:
    """The ignore files met on a walk, read once per folder."""

    def __init__(self) -> None:
        self._chains: dict[Path, _Chain] = {}
        self._in_repository: dict[Path, bool] = {}

    def ignores(self, path: Path, is_folder: bool) -> bool:
        absolute = Path(os.path.abspath(path))
        for base, spec in reversed(self._chain(absolute.parent)):  # the deepest file first
            relative = absolute.relative_to(base).as_posix() + ("/" if is_folder else "")
            included = spec.check_file(relative).include
            if included is not None:
                return included
        return False

    def _chain(self, folder: Path) -> _Chain:
        """The ignore files that apply in ``folder`` (absolute), the shallowest first."""
        chain = self._chains.get(folder)
        if chain is None:
            above = () if folder.parent == folder else self._chain(folder.parent)
            lines = _lines(folder / ".git" / "info" / "exclude")
            if self._inside_repository(folder):
                lines += _lines(folder / ".gitignore")
            lines += _lines(folder / ".ignore")
            chain = (*above, (folder, _spec(lines))) if lines else above
            self._chains[folder] = chain
        return chain

    def _inside_repository(self, folder: Path) -> bool:
        inside = self._in_repository.get(folder)
        if inside is None:
            above = folder.parent != folder and self._inside_repository(folder.parent)
            inside = above or os.path.exists(folder / ".git")
            self._in_repository[folder] = inside
        return inside


def _spec(lines: list[str]) -> GitIgnoreSpec:
    """The patterns of ``lines``; a line git cannot read either (``!`` alone, a trailing ``\\``,
    ``[z-a]``) is left out, as git leaves it. pathspec is imported only here: a tree without
    ignore files (an installed package, a CI checkout's build folder) never pays its import."""
    from pathspec import GitIgnoreSpec

    try:
        return GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        return GitIgnoreSpec.from_lines([line for line in lines if _is_pattern(line)])


def _is_pattern(line: str) -> bool:
    from pathspec import GitIgnoreSpec

    try:
        GitIgnoreSpec.from_lines([line])
    except (ValueError, re.error):
        return False
    return True


def _lines(path: Path) -> list[str]:
    try:
        content = read_regular_file(path, limit=LARGEST_IGNORE_FILE)
    except OSError:  # none there (the common case), unreadable, not a regular file or too large: nothing ignored by it
        return []
    return content.decode("utf-8", errors="replace").splitlines()
