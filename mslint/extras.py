"""What to install for an optional piece of mslint (an extra), in a command that works.

mslint is not on a package index, so ``pip install "mslint[verify]"`` fails; the packages the
extra adds install from the index by name.
"""

from __future__ import annotations

import re


def install_command(extra: str) -> str:
    """``pip install`` of the requirements ``extra`` adds, as the installed mslint declares them."""
    from importlib import metadata  # slow to import (the email package): only when an extra is missing

    try:
        requirements = metadata.requires("mslint") or []
    except metadata.PackageNotFoundError:
        requirements = []
    marker = re.compile(rf"""^(.*?);\s*extra\s*==\s*["']{re.escape(extra)}["']$""")
    wanted = [match.group(1).strip() for r in requirements if (match := marker.match(r))]
    if not wanted:
        return f"install mslint's {extra} extra (see docs/install.md)"
    return "pip install " + " ".join(f'"{requirement}"' for requirement in wanted)
