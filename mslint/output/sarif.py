"""SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

Rules are identified by their code (``MS101``), with their symbol as ``name`` and their
documentation as metadata; results carry a ``partialFingerprints`` entry that does not
change when lines move (see :mod:`mslint.fingerprint`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mslint import __version__
from mslint.diagnostics import Diagnostic, Severity
from mslint.fingerprint import fingerprint
from mslint.rule_docs import documentation_link
from mslint.rules import all_rules
from mslint.rules.base import Rule
from mslint.settings import Settings

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
FINGERPRINT_KEY = "mslint/v1"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def render(diagnostics: list[Diagnostic], root: Path | None = None, extra_rules: Sequence[dict[str, Any]] = ()) -> str:
    """``extra_rules``: descriptors of codes that are no mslint rule (``mslint verify``'s
    compiler-only problems)."""
    root = (root or Path.cwd()).resolve()
    rules = [*(_rule(rule) for rule in all_rules()), *extra_rules]
    index = {rule["id"]: position for position, rule in enumerate(rules)}
    run = {
        "tool": {
            "driver": {
                "name": "mslint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": rules,
            }
        },
        "originalUriBaseIds": {"SRCROOT": {"uri": root.as_uri() + "/"}},
        "results": [_result(d, index[d.code], root) for d in diagnostics],
    }
    return json.dumps({"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}, indent=2) + "\n"


def _rule(rule: Rule) -> dict[str, Any]:
    described: dict[str, Any] = {
        "id": rule.code,
        "name": rule.symbol,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.section("What it does") or rule.summary},
        "help": {"text": rule.documentation(), "markdown": rule.documentation()},
        "defaultConfiguration": {"level": _LEVELS[rule.severity(Settings())]},
    }
    link = documentation_link(rule)
    if link is not None:
        described["helpUri"] = link
    return described


def _artifact_location(path: Path, root: Path) -> dict[str, str]:
    """A URI reference relative to the source root, or a file URI outside it; percent-encoded
    (RFC 3986), so that spaces, ``#``, ``?``, ``%`` and ``:`` in file names stay part of the path."""
    if path.is_relative_to(root):
        return {"uri": quote(os.fsencode(path.relative_to(root).as_posix())), "uriBaseId": "SRCROOT"}
    return {"uri": path.as_uri()}


def _result(d: Diagnostic, rule_index: int, root: Path) -> dict[str, Any]:
    artifact = _artifact_location(Path(d.path).resolve(), root)
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": _LEVELS[d.severity],
        "message": {"text": d.cell_message + (f" (hint: {d.hint})" if d.hint else "")},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": artifact,
                    "region": {
                        "startLine": d.line,
                        "startColumn": d.column,
                        "endLine": d.end_line,
                        "endColumn": d.end_column,
                    },
                }
            }
        ],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(d)},
    }
    if d.entry:
        result["properties"] = {"entry": d.entry}
    return result
