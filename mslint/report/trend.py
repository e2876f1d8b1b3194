"""``--compare OLD.json``: what changed since an earlier ``mslint report --format json``.

Entries are matched by file and name, findings by file and fingerprint (their rule, entry and
source line, as baselines match them: moving code up or down changes nothing)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mslint.discovery import UsageError
from mslint.report.build import FORMAT, FORMAT_VERSION
from mslint.report.documents import NULL, Shape, line_number, read_json_object
from mslint.report.status import COMPILES, LEVELS, NO_FINDING, plural

NEW, STATUS_CHANGED = "new", "status"
_TEXT = (str, NULL)
_READ: Shape = {
    "summary": {level: (dict, NULL) for level in LEVELS},
    "entries": [{"id": (str,), **{level: {"status": _TEXT} for level in LEVELS}}],
    "findings": [
        {"path": (str,), "line": (int,), "code": (str,), "symbol": _TEXT, "message": (str,), "fingerprint": _TEXT}
    ],
}
"""What :func:`add_trend` reads of the earlier report."""


def read_previous_report(path: Path) -> dict[str, Any]:
    data = read_json_object(
        path, "mslint report --format json", {"format": str, "summary": dict, "entries": list, "findings": list}, _READ
    )
    if data["format"] != FORMAT or data.get("version") not in (1, FORMAT_VERSION):
        raise UsageError(f"{path}: not a report of this mslint (format {FORMAT} version {FORMAT_VERSION})")
    if data["version"] == 1:
        _read_version_1(data)
    return data


def _read_version_1(data: dict[str, Any]) -> None:
    """Version 1 said ``compiles`` of an entry without findings: it is ``no-finding`` now."""
    for level in LEVELS:
        for entry in data["entries"]:
            if (entry.get(level) or {}).get("status") == COMPILES:
                entry[level]["status"] = NO_FINDING
        counts = data["summary"].get(level)
        if counts and COMPILES in counts:
            counts[NO_FINDING] = counts.pop(COMPILES)


def add_trend(document: dict[str, Any], previous: dict[str, Any], name: str) -> None:
    """Mark each entry's ``change`` and each finding as ``new`` or not, and say in ``compare``
    what changed in all: new, changed and removed entries, new and fixed findings."""
    before = {e["id"]: e for e in previous["entries"]}
    for entry in document["entries"]:
        entry["change"] = _change(entry, before.get(entry["id"]))
    current = {e["id"] for e in document["entries"]}
    unmatched = Counter(_finding_key(f) for f in previous["findings"])
    for finding in document["findings"]:
        key = _finding_key(finding)
        finding["new"] = unmatched[key] <= 0
        unmatched[key] -= 1
    fixed = [f for f in previous["findings"] if _take(unmatched, _finding_key(f))]
    document["compare"] = {
        "file": name,
        "new_entries": sum(1 for e in document["entries"] if e["change"] and e["change"]["kind"] == NEW),
        "changed_entries": sum(1 for e in document["entries"] if e["change"] and e["change"]["kind"] == STATUS_CHANGED),
        "removed_entries": sorted(str(i) for i in before if i not in current),
        "new_findings": sum(1 for f in document["findings"] if f["new"]),
        "fixed_findings": [
            {**{k: f.get(k) for k in ("path", "code", "symbol", "message")}, "line": line_number(f.get("line"))}
            for f in fixed
        ],
        "before": {level: previous["summary"].get(level) for level in LEVELS},
    }


def changes(compare: dict[str, Any]) -> str:
    """What ``compare`` counts, in words: ``1 new finding, 2 fixed; 1 new entry, ...``."""
    return (
        f"{plural(compare['new_findings'], 'new finding')}, {len(compare['fixed_findings'])} fixed; "
        f"{plural(compare['new_entries'], 'new entry', 'new entries')}, {compare['changed_entries']} changed status, "
        f"{len(compare['removed_entries'])} removed"
    )


def _change(entry: dict[str, Any], old: dict[str, Any] | None) -> dict[str, Any] | None:
    if old is None:
        return {"kind": NEW}
    was = {level: (old.get(level) or {}).get("status") for level in LEVELS}
    if all(was[level] == entry[level]["status"] for level in LEVELS):
        return None
    return {"kind": STATUS_CHANGED, **{f"was_{level}": status for level, status in was.items()}}


def _finding_key(finding: dict[str, Any]) -> tuple[Any, Any]:
    return (finding.get("path"), finding.get("fingerprint"))


def _take(unmatched: Counter[tuple[Any, Any]], key: tuple[Any, Any]) -> bool:
    """Whether an earlier finding is still unmatched (then it was fixed), counting it off."""
    if unmatched[key] > 0:
        unmatched[key] -= 1
        return True
    return False
