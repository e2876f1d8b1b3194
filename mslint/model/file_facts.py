"""What one run learns of the file system while it resolves imports, asked once per run.

A run analyses its components one by one, each as a :class:`~mslint.model.project.Project`
of its own, and every one of them asks whether ``numpy``, ``os`` or ``src`` is a module under
each folder it searches: thousands of the same tests of the same paths. The answers cannot
change while the run reads its files (it writes none), so one :class:`FileFacts`, made for the
run and handed to each of its projects, tests each path once. Made per run, never kept in the
module: a language server or ``--watch`` checks again after files changed.
"""

from __future__ import annotations

import os
from pathlib import Path

from mslint.model.module import Packages
from mslint.source import read_regular_file


class FileFacts:
    """The run's answers about paths, each asked of the file system the first time it is needed."""

    __slots__ = ("_existing", "_files", "_folders", "_resolved", "_scripts", "packages")

    def __init__(self) -> None:
        self.packages: Packages = {}
        """Each folder's import root and package names (:func:`~mslint.model.module.module_name_for`)."""
        self._existing: dict[str, bool] = {}
        self._files: dict[str, bool] = {}
        self._folders: dict[str, bool] = {}
        self._resolved: dict[Path, Path] = {}
        self._scripts: dict[Path, bool] = {}

    def exists(self, path: str) -> bool:
        found = self._existing.get(path)
        if found is None:
            found = self._existing[path] = os.path.exists(path)
        return found

    def is_file(self, path: str) -> bool:
        found = self._files.get(path)
        if found is None:
            found = self._files[path] = os.path.isfile(path)
        return found

    def is_folder(self, path: str) -> bool:
        found = self._folders.get(path)
        if found is None:
            found = self._folders[path] = os.path.isdir(path)
        return found

    def resolved(self, path: Path) -> Path:
        """``path.resolve()``: absolute, with symbolic links followed."""
        found = self._resolved.get(path)
        if found is None:
            found = self._resolved[path] = path.resolve()
        return found

    def holds_script(self, folder: Path) -> bool:
        """Whether a file of ``folder`` runs as a script (it tests ``__name__ == "__main__"``)."""
        found = self._scripts.get(folder)
        if found is None:
            found = self._scripts[folder] = any(_is_script(path) for path in sorted(folder.glob("*.py")))
        return found


def _is_script(path: Path) -> bool:
    try:
        return b"__main__" in read_regular_file(path)
    except OSError:
        return False
