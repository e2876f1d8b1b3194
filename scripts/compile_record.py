"""The committed record of the compiles a measured table rests on: ``mslint/data/compiles/<table>-<release>.json``.

The syntax and augmented-assignment tables are thousands of compiles (about 15 and 6 minutes of CPU
from an empty cache), the kernel table 1,502 APIs each compiled and run (about 105 CPU-s, 5 to 7
minutes on two shared cores), the argument table 581 calls each run and compiled (about 260 CPU-s), the
fold and inference tables 2,104 and 536 compiles (about 190 and 74 CPU-s), more than CI can repeat; they are
checked whole against this record instead.
An entry's key is the hash of what was compiled and how (for a syntax table: the program's text, its
hazard line, the factory, the level, whether graph mode was compared with PyNative; for the kernel
table: the API's calls and the inputs they are called on; for the argument table: the call's source,
its input and the worker that runs it) and of the MindSpore release; its value is the outcome the
table is made from (a syntax table's cell, an API's outcome, a call's errors in each mode). Only a generator that
measured writes the record (its own compiles, or those its local cache kept,
:class:`mindspore_table.MeasurementCache`), together with the table. ``--check`` reads each outcome
from the record by its key and compiles only what the record does not hold (a changed program or
call, a new row or API); the table must be what those outcomes make, and the record must hold
nothing that no compile of the table gives (a stale entry).

What the key leaves out (the verifier, the reading of a compile into an outcome, the Python) is
re-measured by the sample tests (``--recompile``, the kernel table's ``--check-sample``), which compile
their rows instead of reading them (the argument table's key names its worker, so only the Python is left to its
``--check-sample``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from typing import Any

import mindspore_table


class CompileRecord:
    """A table's record of compile outcomes, read on creation; what a run measured or read is
    gathered in :attr:`used`, from which :meth:`write` makes the new record."""

    def __init__(self, table: str, version: str, read: bool = True) -> None:
        """``read``: whether :meth:`lookup` gives what the record holds (else the run compiles
        every program, as ``--recompile`` asks, and the record is only written)."""
        self.name = f"compiles/{table}-{version}.json"
        self._version = version
        self._read = read
        path = mindspore_table.OUTPUT / self.name
        self.outcomes: dict[str, Any] = json.loads(path.read_text())["outcomes"] if path.is_file() else {}
        self.used: dict[str, Any] = {}

    def lookup(self, key: str) -> Any:
        """The outcome held for ``key``; None where none is, or where the run does not read the record."""
        return self.outcomes.get(key) if self._read else None

    def key(self, asked: Mapping[str, Any]) -> str:
        """The key of the compile ``asked`` describes, on this record's release."""
        decided_by = {"asked": asked, "mindspore": self._version}
        return hashlib.sha256(json.dumps(decided_by, sort_keys=True).encode()).hexdigest()[:32]

    def stale(self, keys: Collection[str]) -> list[str]:
        """The entries whose key is none of ``keys`` (every compile of the whole table)."""
        return sorted(set(self.outcomes) - set(keys))

    def write(self, keys: Collection[str]) -> None:
        """Keep the outcome of each of ``keys`` that this run used or the record held, and nothing else."""
        held = {**self.outcomes, **self.used}
        kept = {key: held[key] for key in keys if key in held}
        lines = [
            f"{json.dumps(key)}:{json.dumps(kept[key], separators=(',', ':'), sort_keys=True)}" for key in sorted(kept)
        ]
        path = mindspore_table.OUTPUT / self.name
        path.parent.mkdir(exist_ok=True)
        path.write_text(
            json.dumps({"mindspore": self._version})[:-1] + ',"outcomes":{\n' + ",\n".join(lines) + "\n}}\n"
        )
        self.outcomes = kept


def keep_or_check(record: CompileRecord, keys: Collection[str], check: bool, command: str) -> int:
    """Write ``record`` for the table whose compiles are ``keys``; with ``check``, only say whether
    it holds an outcome no compile of the table gives (1) or not (0)."""
    if not check:
        record.write(keys)
        return 0
    stale = record.stale(keys)
    if stale:
        print(
            f"{record.name} holds {len(stale)} outcomes of compiles the table does not make any more "
            f"(first: {stale[0]}); `{command}` measures what changed and writes it again"
        )
    return 1 if stale else 0
