"""JSON Lines (ruff's ``json-lines``): the objects of the JSON report, one per line, for streaming tools."""

from __future__ import annotations

import json

from mslint.diagnostics import Diagnostic


def render(diagnostics: list[Diagnostic]) -> str:
    return "".join(json.dumps(d.to_json()) + "\n" for d in diagnostics)
