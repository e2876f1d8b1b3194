"""Reading the JSON files the report takes: ``mslint verify --format json`` and an earlier report.

They come from elsewhere (a CI artifact, a colleague): every field the report reads is checked
against a :data:`Shape` first, so that a wrong one is a one-line error, not a crash mid-report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Union

from mslint.discovery import UsageError

Shape = dict[str, "Field"]
"""The fields of an object that the report reads; the others may hold anything."""
Field = Union[tuple[type, ...], Shape, list[Shape]]
"""The types a value may have (``type(None)`` among them when it may be null or absent), an
object of a shape, or a list of objects of a shape (an absent or null object or list is empty)."""
NULL = type(None)


def read_json_object(path: Path, what: str, required: dict[str, type], shape: Shape | None = None) -> dict[str, Any]:
    """The JSON object in ``path`` (``what`` names the command that writes it), with each
    ``required`` field of its type and its fields of ``shape``, if given; a :class:`UsageError`
    of one line otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise UsageError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise UsageError(f"{path}: not JSON: expected the output of `{what}`") from None
    if not (isinstance(data, dict) and all(isinstance(data.get(k), t) for k, t in required.items())):
        raise UsageError(f"{path}: not the output of `{what}`")
    wrong = _mismatch(data, shape or {}, "")
    if wrong is not None:
        raise UsageError(f"{path}: {wrong.lstrip('.')} has the wrong type: not the output of `{what}`")
    return data


def line_number(value: Any) -> int | None:
    """A line number read from one of these files, or None: the page shows it, so nothing else passes."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _mismatch(value: Any, field: Field, where: str) -> str | None:
    """Where ``value`` first differs from ``field`` (a JSON path), or None."""
    if isinstance(field, tuple):
        exact = isinstance(value, field) and (bool in field or not isinstance(value, bool))  # True is an int
        return None if exact else where
    if value is None:
        return None
    if isinstance(field, list):
        if not isinstance(value, list):
            return where
        found = (_mismatch(item, field[0], f"{where}[{number}]") for number, item in enumerate(value))
    elif not isinstance(value, dict):
        return where
    else:
        found = (_mismatch(value.get(key), inner, f"{where}.{key}") for key, inner in field.items())
    return next((wrong for wrong in found if wrong is not None), None)
