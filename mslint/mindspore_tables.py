"""Facts about MindSpore releases read out of MindSpore itself and shipped as package data.

Each table is ``mslint/data/<kind>-<version>.json``, written by a script in ``scripts/``
from an installed release, so that rules can use them without MindSpore installed. The
release a run targets is ``mindspore-version`` when set, else the installed MindSpore, else
the newest release described.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"

Version = tuple[int, ...]


def _parse(version: str) -> Version:
    """``2.7.1.post1`` -> (2, 7, 1): the numbers that name a release."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    if not match:
        raise ValueError(f"{version!r} is not a MindSpore version")
    return tuple(int(n) for n in match.group().split("."))[:3]


@cache
def described_releases() -> tuple[str, ...]:
    """The releases mslint has API tables for, oldest first."""
    found = [p.stem.removeprefix("api-") for p in DATA.glob("api-*.json")]
    return tuple(sorted(found, key=_parse))


def release_for(requested: str) -> str:
    """The described release a ``--mindspore-version`` value names: exact (``2.9.0``), or the
    newest of a series (``2.9``); ValueError naming the described ones otherwise."""
    wanted = _parse(requested)
    matching = [r for r in described_releases() if _parse(r)[: len(wanted)] == wanted]
    if not matching:
        raise ValueError(
            f"mslint has no tables for MindSpore {requested} (it describes {', '.join(described_releases())})"
        )
    return matching[-1]


@cache
def default_release() -> str:
    """The installed MindSpore's release (the nearest described one not newer), else the newest."""
    releases = described_releases()
    try:
        installed = _parse(metadata.version("mindspore"))
    except (metadata.PackageNotFoundError, ValueError):
        return releases[-1]
    older = [r for r in releases if _parse(r) <= installed]
    return older[-1] if older else releases[0]


def targeted_release(requested: str | None) -> str:
    return release_for(requested) if requested else default_release()


@cache
def table(kind: str, release: str) -> dict[str, Any]:
    """The ``kind`` table (``api``, ``jit-forbidden``) of a described ``release``."""
    data: dict[str, Any] = json.loads((DATA / f"{kind}-{release}.json").read_text(encoding="utf-8"))
    return data
