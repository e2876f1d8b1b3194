"""What every front-end reports: a diagnostic at a source span, with a severity."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Severity(enum.IntEnum):
    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


@dataclass(frozen=True)
class Diagnostic:
    path: str
    line: int
    column: int
    """1-based, like every position here."""
    end_line: int
    end_column: int
    code: str
    symbol: str
    severity: Severity
    message: str
    hint: str | None = None
    entry: str | None = None
    """The graph entry point that reaches the code (``Net.construct``), for graph-mode rules."""
    entry_path: str | None = None
    """The file that defines ``entry``."""
    fix: dict[str, Any] | None = None

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.column, self.code)

    @classmethod
    def from_json(cls, data: dict[str, Any], entry_path: str | None = None) -> Diagnostic:
        """The inverse of :meth:`to_json` (which leaves ``entry_path`` out)."""
        fields = {k: v for k, v in data.items() if k != "severity"}
        return cls(**fields, severity=Severity.parse(data["severity"]), entry_path=entry_path)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "symbol": self.symbol,
            "severity": str(self.severity),
            "message": self.message,
            "hint": self.hint,
            "entry": self.entry,
            "fix": self.fix,
        }
