"""What a watcher is given and how it places a finding: the report it calls, the test of which
files are the user's, and the user's line on the stack that called MindSpore."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from mslint.verify.compiler_output import Location, Problem

Report = Callable[[Problem], None]
IsUserFile = Callable[[str], bool]


def caller_location(is_user_file: IsUserFile) -> tuple[Location, ...]:
    """The innermost line of the user's files on the current stack (none when MindSpore was
    called from elsewhere)."""
    frame = sys._getframe(1)
    while frame is not None:
        if is_user_file(frame.f_code.co_filename):
            return ((str(Path(frame.f_code.co_filename).resolve()), frame.f_lineno),)
        frame = frame.f_back  # type: ignore[assignment]
    return ()
