"""The optional dependencies (extras) pyproject.toml declares, to compare with what mslint tells users to install."""

from __future__ import annotations

import re
import sys

from packaging.requirements import Requirement

from tests.examples import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib


def extra_requirements(extra: str) -> set[str]:
    """The requirements that ``extra`` adds, normalized."""
    with open(REPO / "pyproject.toml", "rb") as stream:
        project = tomllib.load(stream)["project"]
    return {str(Requirement(text)) for text in project["optional-dependencies"][extra]}


def quoted_requirements(message: str) -> set[str]:
    """The requirements quoted in a ``pip install "a>=1" "b<2"`` message, normalized."""
    return {str(Requirement(text)) for text in re.findall(r'"([^"]+)"', message)}
