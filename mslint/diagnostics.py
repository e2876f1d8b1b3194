"""What every front-end reports: a diagnostic at a source span, with a severity."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field
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
class Edit:
    """Replace the text from (line, column) up to, not including, (end_line, end_column); 1-based."""

    line: int
    column: int
    end_line: int
    end_column: int
    content: str


@dataclass(frozen=True)
class Fix:
    """Edits that remove a finding. ``safe`` fixes keep the program's meaning (ruff's model)."""

    message: str
    edits: tuple[Edit, ...]
    applicability: str = "safe"

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "applicability": self.applicability, "edits": [asdict(e) for e in self.edits]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fix:
        return cls(data["message"], tuple(Edit(**e) for e in data["edits"]), data["applicability"])


@dataclass(frozen=True)
class Severities:
    """A finding's severity at each syntax level. The rules report the same findings at both
    levels, only their severity changes: one analysis gives both. None where a level's
    analysis did not report the finding."""

    strict: Severity | None
    lax: Severity | None

    def at(self, level: str) -> Severity | None:
        return self.strict if level == "strict" else self.lax

    @property
    def falls_back(self) -> bool:
        """A LAX warning that the syntax level changes: LAX interprets what STRICT treats otherwise."""
        return self.lax == Severity.WARNING and self.strict != Severity.WARNING


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
    fix: Fix | None = None
    cell: int | None = None
    """In a notebook: the cell (from 1, among all its cells) that ``line`` counts in."""
    severities: Severities | None = field(default=None, compare=False)
    """Its severity at both syntax levels, from the analysis that found it (the report shows
    both); None where it was read back from a cache or a file."""

    @property
    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.column, self.code)

    @classmethod
    def from_json(cls, data: dict[str, Any], entry_path: str | None = None) -> Diagnostic:
        """The inverse of :meth:`to_json` (which leaves ``entry_path`` out)."""
        fields = {k: v for k, v in data.items() if k not in ("severity", "fix")}
        fix = Fix.from_json(data["fix"]) if data.get("fix") else None
        return cls(**fields, severity=Severity.parse(data["severity"]), fix=fix, entry_path=entry_path)

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
            "fix": self.fix.to_json() if self.fix else None,
            **({"cell": self.cell} if self.cell is not None else {}),
        }

    @property
    def cell_message(self) -> str:
        """The message, after the cell in a notebook: for formats whose location has no cell."""
        return f"cell {self.cell}: {self.message}" if self.cell is not None else self.message

    @property
    def place(self) -> str:
        """``line:column``, or ``cell N:line:column`` in a notebook (as ruff writes it)."""
        where = f"{self.line}:{self.column}"
        return f"cell {self.cell}:{where}" if self.cell is not None else where
