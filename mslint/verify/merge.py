"""``mslint verify merge SHARD.json... -o ALL.json``: the results of the N shards of one split
as one result, as if one machine had verified every entry.

Each shard's JSON result records its place (``shard``: index, count, the commit it checked
out, a digest of the whole split and its own entries). The shards are merged only when they
are the N shards of one split of one commit, each given once; anything else is an error that
names the shard. Findings are sorted as ``mslint verify`` sorts them; a finding that two shards
reported (an entry one shard's example built and another shard built from its specs) is kept
once, with the evidence of both and the better-founded verdict; compiler-only problems are
kept once per line and kind, at their most severe.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from mslint.diagnostics import Severity
from mslint.discovery import UsageError
from mslint.report.documents import read_json_object
from mslint.verify.shards import MOST_SHARDS, Shard, split_digest

_SHARDED = "mslint verify --shard ... --format json"
_VERDICT_RANK = {"confirmed": 0, "not-reproduced": 1, "not-verifiable": 2}
_LEVEL_ORDER = {"strict": 0, "lax": 1}


def current_commit() -> str | None:
    """The commit checked out in the working folder; None outside a git work tree."""
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None


def shard_json(shard: Shard, shards: list[set[str]]) -> dict[str, Any]:
    return {
        "index": shard.index,
        "count": shard.count,
        "found_in": shard.found_in,
        "commit": current_commit(),
        "split": split_digest(shards),
        "entries": sorted(shards[shard.index - 1]),
    }


def merge(paths: list[Path]) -> dict[str, Any]:
    """One result of the shards in ``paths``; a :class:`UsageError` naming the shard that is
    missing, given twice, or of another commit or split."""
    shards = [(path, _shard_of(path, read_json_object(path, _SHARDED, _FIELDS))) for path in paths]
    first_path, (first, _) = shards[0]
    by_index: dict[int, Path] = {}
    for path, (place, _) in shards:
        if place["count"] != first["count"]:
            raise UsageError(
                f"{path} is shard {_place(place)} and {first_path} shard {_place(first)}: not shards of one split"
            )
        if place.get("commit") != first.get("commit"):
            raise UsageError(
                f"{path} (shard {_place(place)}) is of commit {_commit(place)}, "
                f"{first_path} (shard {_place(first)}) of commit {_commit(first)}"
            )
        if place.get("split") != first.get("split"):
            raise UsageError(
                f"{path} (shard {_place(place)}) split the entries otherwise than {first_path}: "
                "other files, entries or --durations"
            )
        if place["index"] in by_index:
            raise UsageError(f"shard {_place(place)} is given twice: {by_index[place['index']]} and {path}")
        by_index[place["index"]] = path
    missing = [f"{index}/{first['count']}" for index in range(1, first["count"] + 1) if index not in by_index]
    if missing:
        raise UsageError(f"shard{'s' if len(missing) > 1 else ''} {', '.join(missing)} missing: give every shard")
    results = [document for _, (_, document) in shards]
    return {
        "findings": _findings([f for r in results for f in r["findings"]]),
        "compiler_only": _compiler_only([c for r in results for c in r["compiler_only"]]),
        "compiles": sorted((c for r in results for c in r["compiles"]), key=_compile_order),
        "run": None,
        "seconds": round(sum(float(r.get("seconds") or 0) for r in results), 2),
        "merged": {
            "count": first["count"],
            "commit": first.get("commit"),
            "split": first.get("split"),
            "shards": [str(by_index[index]) for index in sorted(by_index)],
        },
    }


_FIELDS: dict[str, type] = {"findings": list, "compiler_only": list, "compiles": list}
_FINDING: dict[str, type] = {"path": str, "line": int, "column": int, "code": str, "evidence": list}


def _shard_of(path: Path, document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    place = document.get("shard")
    if not (
        isinstance(place, dict)
        and isinstance(place.get("index"), int)
        and isinstance(place.get("count"), int)
        and 1 <= place["index"] <= place["count"]
    ):
        raise UsageError(f"{path}: not the result of a shard: `mslint verify` wrote it without --shard")
    if place["count"] > MOST_SHARDS:
        most = f"{MOST_SHARDS:,}"
        raise UsageError(f"{path}: shard {_place(place)}: not of `mslint verify --shard`, which makes at most {most}")
    findings_whole = all(
        isinstance(f, dict) and all(isinstance(f.get(k), t) for k, t in _FINDING.items()) for f in document["findings"]
    )
    if not findings_whole or not all(isinstance(c, dict) for c in [*document["compiles"], *document["compiler_only"]]):
        raise UsageError(f"{path}: not the output of `{_SHARDED}`: a finding or compile is not whole")
    if not all(_is_line(c.get("line")) for c in document["compiler_only"]):
        raise UsageError(f"{path}: not the output of `{_SHARDED}`: a compiler-only problem's line is not a number")
    seconds = document.get("seconds")
    if not (seconds is None or (isinstance(seconds, (int, float)) and not isinstance(seconds, bool))):
        raise UsageError(f"{path}: not the output of `{_SHARDED}`: seconds is not a number")
    return place, document


def _is_line(value: Any) -> bool:
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _place(place: dict[str, Any]) -> str:
    return f"{place['index']}/{place['count']}"


def _commit(place: dict[str, Any]) -> str:
    commit = place.get("commit")
    return str(commit)[:12] if commit else "none (not a git work tree)"


def _findings(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    for finding in findings:
        key = tuple(finding.get(k) for k in ("path", "line", "column", "end_line", "end_column", "code", "message"))
        other = kept.get(key)
        if other is None:
            kept[key] = finding
            continue
        better, worse = sorted((other, finding), key=lambda f: _VERDICT_RANK.get(str(f.get("verdict")), 3))
        evidence = {json.dumps(p, sort_keys=True): p for p in [*better["evidence"], *worse["evidence"]]}
        kept[key] = {**better, "evidence": list(evidence.values())}
    return sorted(kept.values(), key=lambda f: (f["path"], f["line"], f["column"], f["code"]))


def _compiler_only(problems: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept: dict[tuple[Any, ...], dict[str, Any]] = {}
    for problem in problems:
        key = (problem.get("path"), problem.get("line"), problem.get("kind"))
        if key not in kept or _severity(problem) > _severity(kept[key]):
            kept[key] = problem
    return [kept[key] for key in sorted(kept, key=lambda k: (str(k[0]), int(k[1] or 0), str(k[2])))]


def _severity(problem: dict[str, Any]) -> Severity:
    try:
        return Severity.parse(str(problem.get("severity")))
    except ValueError:
        return Severity.INFO


def _compile_order(compile_: dict[str, Any]) -> tuple[str, str, int]:
    return (str(compile_.get("path")), str(compile_.get("name")), _LEVEL_ORDER.get(str(compile_.get("level")), 2))
