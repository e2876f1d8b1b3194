"""``check --show-fixes`` without ``--fix``: each finding's fix as a diff under it, as ruff's full
output shows a suggested fix, so it can be reviewed before ``--fix`` applies it."""

from __future__ import annotations

import difflib
from pathlib import Path

from mslint.diagnostics import Diagnostic
from mslint.fixes import apply_fixes
from mslint.source import read_source, split_lines


def fix_lines(diagnostic: Diagnostic, gutter: str) -> list[str]:
    """`` = fix: MESSAGE`` and the changed lines with one line of context; none without a fix."""
    fix = diagnostic.fix
    if fix is None:
        return []
    label = "fix" if fix.applicability == "safe" else "unsafe fix (with --unsafe-fixes)"
    lines = [f" {gutter} = {label}: {fix.message}"]
    try:
        before = read_source(Path(diagnostic.path)).text
    except (OSError, UnicodeDecodeError):
        return lines
    after, _ = apply_fixes(before, [fix])
    diff = difflib.unified_diff(split_lines(before), split_lines(after), n=1)
    changed = [line.rstrip("\n") for line in diff if not line.startswith(("---", "+++", "@@"))]
    return lines + [f" {gutter}   {line}".rstrip() for line in changed]
