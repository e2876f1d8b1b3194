"""Facts about MindSpore releases read out of MindSpore itself and shipped as package data.

Each table is ``mslint/data/<kind>-<version>.json``, written by a script in ``scripts/``
from an installed release, so that rules can use them without MindSpore installed.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


@cache
def newest_table(kind: str) -> dict[str, Any]:
    """The ``kind`` table (``api``, ``jit-forbidden``) of the newest release described."""
    tables = sorted(
        DATA.glob(f"{kind}-*.json"), key=lambda p: tuple(int(n) for n in p.stem.rsplit("-", 1)[1].split("."))
    )
    table: dict[str, Any] = json.loads(tables[-1].read_text(encoding="utf-8"))
    return table
