"""Where an import looks for the project's own modules.

Python finds ``import app.utils.mathx`` under a folder on ``sys.path``. For a file inside
regular packages that folder is the one above its outermost ``__init__.py`` (the module's
import root). Namespace packages (PEP 420: folders without ``__init__.py``) leave the root
ambiguous: the script may run from any folder above. So a name is looked up under the
module's import root first, then under each folder above it, up to the project's top: the
configuration's folder (or the current one) when the file lies inside it, else the nearest
folder that marks a project (``pyproject.toml``, ``setup.py``, ``setup.cfg``, ``.git``), else
the file system's root: the same tree gives the same results from wherever it is checked.
Code checked where it is installed (``site-packages``) is a project of its own package only:
the folders above the installation hold the interpreter's library, not the project's code.
"""

from __future__ import annotations

import os
from pathlib import Path

from mslint.model.file_facts import FileFacts

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", ".git")
INSTALLATION_FOLDERS = frozenset({"site-packages", "dist-packages"})


class ImportRoots:
    """The folders searched for imports made by modules of a given import root, nearest first."""

    def __init__(self, top: Path | None, files: FileFacts) -> None:
        self.top = top.resolve() if top is not None else None
        self._files = files
        self._memo: dict[Path, tuple[Path, ...]] = {}

    def for_root(self, root: Path) -> tuple[Path, ...]:
        searched = self._memo.get(root)
        if searched is None:
            searched = self._memo[root] = (root, *_parents_up_to(root, self._top_for(root)))
        return searched

    def _top_for(self, root: Path) -> Path:
        if root.name in INSTALLATION_FOLDERS:
            return root
        if self.top is not None and (root == self.top or self.top in root.parents):
            return self.top
        marked = (
            f for f in (root, *root.parents) if any(self._files.exists(os.path.join(f, m)) for m in PROJECT_MARKERS)
        )
        return next(marked, Path(root.anchor))


def _parents_up_to(root: Path, top: Path) -> list[Path]:
    parents: list[Path] = []
    for parent in root.parents if root != top else ():
        parents.append(parent)
        if parent == top:
            break
    return parents


def module_files(name: str, root: str | Path) -> tuple[str, str]:
    """The two files that can hold module ``name`` under ``root``: ``a/b.py`` and ``a/b/__init__.py``
    (strings: the run's components test thousands of them)."""
    base = os.path.join(root, *name.split("."))
    return f"{base}.py", os.path.join(base, "__init__.py")
