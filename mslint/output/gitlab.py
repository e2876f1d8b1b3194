"""GitLab Code Quality (a subset of the Code Climate format): findings in merge request widgets."""

from __future__ import annotations

import json
import os
from pathlib import Path

from mslint.diagnostics import Diagnostic, Severity
from mslint.fingerprint import fingerprint

_SEVERITIES = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}


def render(diagnostics: list[Diagnostic]) -> str:
    issues = [
        {
            "description": f"{d.code} {d.cell_message}",
            "check_name": d.symbol,
            "fingerprint": fingerprint(d),
            "severity": _SEVERITIES[d.severity],
            "location": {
                "path": Path(os.path.relpath(Path(d.path).resolve(), Path.cwd())).as_posix(),
                "lines": {"begin": d.line, "end": d.end_line},
            },
        }
        for d in diagnostics
    ]
    return json.dumps(issues, indent=2) + "\n"
