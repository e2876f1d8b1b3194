"""``--color``: ANSI styles for the reports people read, on a terminal (ruff's ``auto``), always or never.

``NO_COLOR`` (no-color.org) turns ``auto`` off and ``FORCE_COLOR`` turns it on."""

from __future__ import annotations

import os
from typing import TextIO

WHEN = ("auto", "always", "never")
_STYLES = {"bold": "1", "error": "1;31", "warning": "1;33", "info": "1;34", "hint": "36"}


def use_color(when: str, stream: TextIO | None) -> bool:
    """``stream``: where the report goes (None: a file, never a terminal)."""
    if when != "auto":
        return when == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return stream is not None and stream.isatty()


def paint(text: str, style: str, color: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if color else text
