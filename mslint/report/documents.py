"""Reading the JSON files the report takes: ``mslint verify --format json`` and an earlier report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mslint.discovery import UsageError


def read_json_object(path: Path, what: str, required: dict[str, type]) -> dict[str, Any]:
    """The JSON object in ``path`` (``what`` names the command that writes it), with each
    ``required`` field of its type; a :class:`UsageError` of one line otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise UsageError(f"{path}: not JSON: expected the output of `{what}`") from None
    if not (isinstance(data, dict) and all(isinstance(data.get(k), t) for k, t in required.items())):
        raise UsageError(f"{path}: not the output of `{what}`")
    return data


def line_number(value: Any) -> int | None:
    """A line number read from one of these files, or None: the page shows it, so nothing else passes."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
