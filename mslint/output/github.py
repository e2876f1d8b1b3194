"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request."""

from __future__ import annotations

from mslint.diagnostics import Diagnostic, Severity

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def render(diagnostics: list[Diagnostic]) -> str:
    return "".join(_annotation(d) + "\n" for d in diagnostics)


def _annotation(d: Diagnostic) -> str:
    properties = {
        "file": d.path,
        "line": d.line,
        "col": d.column,
        "endLine": d.end_line,
        "endColumn": d.end_column,
        "title": f"{d.code} {d.symbol}",
    }
    fields = ",".join(f"{name}={_escape_property(str(value))}" for name, value in properties.items())
    return f"::{_COMMANDS[d.severity]} {fields}::{_escape_data(f'{d.code} {d.cell_message}')}"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")
