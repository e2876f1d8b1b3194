"""Facts about MindSpore releases read out of MindSpore itself and shipped as package data.

Each table is ``mslint/data/<kind>-<version>.json``, written by a script in ``scripts/``
from an installed release, so that rules can use them without MindSpore installed. The
release a run targets is ``mindspore-version`` when set, else the installed MindSpore, else
the newest release described.
"""

from __future__ import annotations

import json
import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"

Version = tuple[int, ...]


def parse_release(version: str) -> Version:
    """``2.7.1.post1`` -> (2, 7, 1): the numbers that name a release."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    if not match:
        raise ValueError(f"{version!r} is not a MindSpore version")
    return tuple(int(n) for n in match.group().split("."))[:3]


@cache
def releases_with(kind: str) -> tuple[str, ...]:
    """The releases mslint has ``<kind>-<release>.json`` tables for (``api``, ``syntax``), oldest first."""
    found = [p.stem.removeprefix(f"{kind}-") for p in DATA.glob(f"{kind}-*.json")]
    return tuple(sorted(found, key=parse_release))


def described_releases() -> tuple[str, ...]:
    """The releases mslint has API tables for, oldest first."""
    return releases_with("api")


def nearest_release(releases: tuple[str, ...], version: Version) -> str:
    """The newest of ``releases`` not newer than ``version``, else the oldest."""
    older = [r for r in releases if parse_release(r) <= version]
    return older[-1] if older else releases[0]


def release_for(requested: str) -> str:
    """The described release a ``--mindspore-version`` value names: exact (``2.9.0``), or the
    newest of a series (``2.9``); ValueError naming the described ones otherwise."""
    wanted = parse_release(requested)
    matching = [r for r in described_releases() if parse_release(r)[: len(wanted)] == wanted]
    if not matching:
        raise ValueError(
            f"mslint has no tables for MindSpore {requested} (it describes {', '.join(described_releases())})"
        )
    return matching[-1]


@cache
def default_release() -> str:
    """The installed MindSpore's release (the nearest described one not newer), else the newest."""
    releases = described_releases()
    version = installed_version("mindspore")
    try:
        installed = parse_release(version or "")
    except ValueError:
        return releases[-1]
    return nearest_release(releases, installed)


def installed_version(distribution: str) -> str | None:
    """The version of an installed distribution, from the first metadata folder for it on
    ``sys.path`` (``NAME-VERSION.dist-info/METADATA`` or ``NAME.egg-info/PKG-INFO``), as
    ``importlib.metadata.version`` finds it, without importing ``importlib.metadata``: that
    pulls in the email package, a fifth of mslint's start-up."""
    wanted = _normalized(distribution)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # a zip file, a missing folder
            continue
        for name in names:
            stem, suffix = os.path.splitext(name)
            if suffix not in (".dist-info", ".egg-info") or _normalized(stem.split("-")[0]) != wanted:
                continue
            version = _metadata_version(Path(entry or ".", name, "METADATA" if suffix == ".dist-info" else "PKG-INFO"))
            if version is not None:
                return version
    return None


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def _metadata_version(path: Path) -> str | None:
    """The ``Version:`` header of a core metadata file (the headers end at the first blank line)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if not line.strip():
                    break
                if line.startswith("Version:"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return None


def targeted_release(requested: str | None) -> str:
    return release_for(requested) if requested else default_release()


@cache
def table(kind: str, release: str) -> dict[str, Any]:
    """The ``kind`` table (``api``, ``jit-forbidden``) of a described ``release``."""
    data: dict[str, Any] = json.loads((DATA / f"{kind}-{release}.json").read_text(encoding="utf-8"))
    return data


@cache
def module_table(release: str) -> frozenset[str] | None:
    """The modules of ``release`` (``modules-<release>.json``); None where no table describes that
    release itself: modules come and go between releases, so no other release's stands in."""
    if release not in releases_with("modules"):
        return None
    return frozenset(table("modules", release)["modules"])


def shadow_table(release: str) -> dict[str, Any]:
    """What building a Cell does when ``__init__`` assigns an attribute named as a public member of
    ``nn.Cell`` (``shadowed-<release>.json``), measured on the nearest release not newer."""
    return table("shadowed", nearest_release(releases_with("shadowed"), parse_release(release)))


def attribute_table(release: str) -> dict[str, Any]:
    """The attributes of MindSpore's objects (``attributes-<release>.json``) measured on the nearest
    release not newer than ``release``: they are measured on fewer releases than the API."""
    measured = nearest_release(releases_with("attributes"), parse_release(release))
    return table("attributes", measured)
