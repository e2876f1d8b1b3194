"""The JSON report: a list of diagnostics, the contract of DESIGN.md section 4."""

from __future__ import annotations

import json

from mslint.diagnostics import Diagnostic


def render(diagnostics: list[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diagnostics], indent=2) + "\n"
