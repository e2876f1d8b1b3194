"""``mslint verify --shard I/N``: one of N parts of the entries to verify, for a CI matrix.

The entries (``--example`` factories and the Cells and functions built from specs) are named
by their file, relative to the working folder, and their name; sorted by that name and dealt
out in turn, so every entry is in exactly one shard, shard sizes differ by at most one, and
every machine computes the same split whatever order the file system lists files in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


@dataclass(frozen=True)
class Shard:
    index: int
    """1-based, as CI matrices count."""
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        match = _SHARD.fullmatch(text)
        if match is None:
            raise ValueError(f"--shard {text!r}: expected I/N, e.g. 2/4")
        index, count = int(match.group(1)), int(match.group(2))
        if not 1 <= index <= count:
            raise ValueError(f"--shard {text!r}: expected 1 <= I <= N")
        return cls(index, count)

    def select(self, entries: Iterable[str]) -> set[str]:
        """The entries of this shard, out of all of them (named as by :func:`entry_name`)."""
        ordered = sorted(set(entries))
        return set(ordered[self.index - 1 :: self.count])


def entry_name(path: Path | str, name: str) -> str:
    """``models/resnet.py:ResNet``: the same on every machine that checks out the project in
    the working folder."""
    resolved = Path(path).resolve()
    try:
        shown = resolved.relative_to(Path.cwd().resolve())
    except ValueError:
        shown = resolved
    return f"{shown.as_posix()}:{name}"
