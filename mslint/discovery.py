"""Which files a run checks: the paths given, with folders walked for Python files."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mslint.ignore_files import IgnoreFiles
from mslint.settings import Settings


class UsageError(Exception):
    """A bad command line (a missing path, an unknown rule); one line, exit code 2."""


@dataclass
class Discovery:
    files: list[Path] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    """One line per path that cannot be read or listed (exit code 2; the other files are checked)."""
    skipped: list[str] = field(default_factory=list)
    """One line per path skipped as not a regular file (a FIFO, a device): reading it could block forever."""


def discover(paths: list[Path], settings: Settings) -> Discovery:
    """Python files under ``paths``, sorted, excluded ones left out; files named explicitly always count."""
    found: dict[Path, None] = {}
    discovery = Discovery()
    # A link found in a folder is read only where it stays inside the folders named: a pull
    # request's ``leak.py -> /proc/self/environ`` must not print a CI job's secrets.
    roots = [Path(os.path.realpath(p)) for p in paths]

    def add(path: Path) -> None:
        try:
            mode = path.stat().st_mode
        except OSError as error:
            discovery.unreadable.append(f"{path}: cannot read: {error.strerror or error}")
            return
        if stat.S_ISREG(mode):
            found[path] = None
        else:
            discovery.skipped.append(f"{path}: not a regular file, skipped")

    def unlistable(error: OSError) -> None:
        discovery.unreadable.append(f"{error.filename}: cannot read folder: {error.strerror or error}")

    for path in paths:
        try:
            is_folder = stat.S_ISDIR(path.stat().st_mode)
        except FileNotFoundError:
            raise UsageError(f"{path}: no such file or directory") from None
        except OSError:
            is_folder = False  # a symlink loop, a folder above that cannot be entered: add() says so
        if settings.is_force_excluded(path):
            continue
        if not is_folder:
            add(path)
            continue
        skips = _walk_filter(path, settings)
        for folder, subfolders, files in os.walk(path, onerror=unlistable):
            subfolders[:] = sorted(d for d in subfolders if not skips(Path(folder, d), True))
            for name in sorted(files):
                candidate = Path(folder, name)
                if not name.endswith((".py", ".pyi", ".ipynb")) or skips(candidate, False):
                    continue
                if candidate.is_symlink() and _leads_outside(candidate, roots):
                    discovery.skipped.append(f"{candidate}: a link to a file outside the checked folders, skipped")
                    continue
                add(candidate)
    discovery.files = list(found)
    return discovery


def _leads_outside(link: Path, roots: list[Path]) -> bool:
    """Whether the file a link leads to lies outside every root (a loop or a dangling link leads
    nowhere: reading it says why)."""
    try:
        target = link.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    return not any(target == root or root in target.parents for root in roots)


def _walk_filter(top: Path, settings: Settings) -> Callable[[Path, bool], bool]:
    """Whether the walk of the folder ``top`` skips a path (a folder when the flag says so): it is
    excluded, or git ignores it, unless ``top`` itself is ignored (named on purpose)."""
    ignore_files = IgnoreFiles() if settings.respect_gitignore else None
    if ignore_files is not None and ignore_files.ignores(top, is_folder=True):
        ignore_files = None
    return lambda path, is_folder: (
        settings.is_excluded(path) or (ignore_files is not None and ignore_files.ignores(path, is_folder))
    )
