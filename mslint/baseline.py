"""Baselines: record today's findings, then report only new ones (``check --baseline FILE``).

An entry is the file (relative to the baseline's folder), the rule and the finding's
fingerprint, which leaves out the line number: unrelated edits that move a finding keep it
matched, and fixing it removes it from the report. Identical findings on identical lines
are matched by count.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint.atomic_write import write_atomically
from mslint.diagnostics import Diagnostic
from mslint.fingerprint import fingerprint, source_line

FORMAT_VERSION = 1


class BaselineError(Exception):
    """An unreadable or malformed baseline file; one line, exit code 2."""


@dataclass(frozen=True)
class Entry:
    path: str
    code: str
    fingerprint: str


@dataclass
class Comparison:
    new: list[Diagnostic]
    """Findings the baseline does not record: the ones to report."""
    stale: list[dict[str, Any]]
    """Recorded findings of the checked files that are gone (fixed, or their line changed)."""


def _relative(path: str, folder: Path) -> str:
    return Path(os.path.relpath(Path(path).resolve(), folder.resolve())).as_posix()


def write_baseline(diagnostics: list[Diagnostic], file: Path) -> None:
    folder = file.resolve().parent
    findings = [
        {
            "path": _relative(d.path, folder),
            "code": d.code,
            "symbol": d.symbol,
            "entry": d.entry,
            "fingerprint": fingerprint(d),
            "line": d.line,
            "source": (source_line(d.path, d.line) or "").strip(),
        }
        for d in diagnostics
    ]
    document = {"mslint-baseline": FORMAT_VERSION, "findings": findings}
    try:
        write_atomically(file, (json.dumps(document, indent=2) + "\n").encode("utf-8"))
    except OSError as error:
        raise BaselineError(f"{file}: cannot write: {error.strerror or error}") from None


def compare(diagnostics: list[Diagnostic], file: Path, checked: list[Path]) -> Comparison:
    folder = file.resolve().parent
    recorded = _load(file)
    remaining = Counter(Entry(r["path"], r["code"], r["fingerprint"]) for r in recorded)
    new = []
    for d in diagnostics:
        key = Entry(_relative(d.path, folder), d.code, fingerprint(d))
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            new.append(d)
    checked_paths = {_relative(str(p), folder) for p in checked}
    stale = []
    for record in recorded:
        key = Entry(record["path"], record["code"], record["fingerprint"])
        if record["path"] in checked_paths and remaining[key] > 0:
            remaining[key] -= 1
            stale.append(record)
    return Comparison(new, stale)


def _load(file: Path) -> list[dict[str, Any]]:
    try:
        document = json.loads(file.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"{file}: cannot read baseline: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"{file}: not a baseline file: {error}") from None
    except RecursionError:
        raise BaselineError(f"{file}: not a baseline file: nested too deeply") from None
    findings = document.get("findings") if isinstance(document, dict) else None
    if not isinstance(findings, list) or document.get("mslint-baseline") != FORMAT_VERSION:
        raise BaselineError(f"{file}: not an mslint baseline (write one with `mslint baseline -o {file}`)")
    required = ("path", "code", "fingerprint")
    if not all(isinstance(f, dict) and all(isinstance(f.get(k), str) for k in required) for f in findings):
        raise BaselineError(f"{file}: malformed baseline entry (each needs path, code and fingerprint)")
    return findings
