"""The Python versions a project declares: the lower bound of ``requires-python`` in the nearest
``pyproject.toml`` above a module (``>=3.12``, ``~=3.12``, ``==3.12.*``, ``>3.11``).

MindSpore 2.10's bytecode capture raises on Python 3.12 and later: code that only runs there
cannot use it. An unreadable file or a bound mslint does not parse declares nothing.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

Version = tuple[int, int]
_LOWER = re.compile(r"(>=|~=|==|>)\s*3\.(\d+)")


def declared_floor(module_path: Path) -> Version | None:
    """The lowest Python version the project of ``module_path`` declares; None where it declares none."""
    return _floor_in(module_path.absolute().parent)


@lru_cache(maxsize=256)
def _floor_in(folder: Path) -> Version | None:
    for candidate in (folder, *folder.parents):
        pyproject = candidate / "pyproject.toml"
        try:
            if not pyproject.is_file():
                continue
            with pyproject.open("rb") as stream:
                project = tomllib.load(stream).get("project", {})
        except (OSError, ValueError, RecursionError):  # an unreadable file declares nothing
            return None
        requires = project.get("requires-python") if isinstance(project, dict) else None
        return _lower_bound(requires) if isinstance(requires, str) else None
    return None


def _lower_bound(specifier: str) -> Version | None:
    """The greatest lower bound among the clauses: ``>=3.9,<4`` -> (3, 9); ``>3.11`` -> (3, 12)."""
    bounds = [(3, int(minor) + (1 if op == ">" else 0)) for op, minor in _LOWER.findall(specifier)]
    return max(bounds) if bounds else None
