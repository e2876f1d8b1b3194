"""``--verify-results``: the compiler's evidence beside the predictions, from ``mslint verify --format json``.

An entry's confirmed status at a level comes from its own compile at that level: ``fails``
when an error of the code stopped it (building the Cell or compiling it), ``falls-back`` when
LAX compiled it with fallbacks in its code, ``compiles`` otherwise; or the reason it was not
compiled (``not-verifiable``, ``crashed``, ``timed-out``). Entries verify did not compile have none.
An entry with no finding that the compiler compiled at a level is ``compiles`` there: the only
way the report says so.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from mslint.report.build import level_counts
from mslint.report.documents import NULL, Shape, line_number, read_json_object
from mslint.report.status import COMPILES, FAILS, FALLS_BACK, LAX, LEVELS, NO_FINDING

_RAN = ("compiled", "build-failed")
"""What a compile that ran to a result says (:data:`mslint.verify.runner.RAN`): its evidence is read."""
_ERROR, _FALLBACK = "error", "fallback"
_TEXT, _NUMBER = (str, NULL), (int, NULL)
_PROBLEM: Shape = {"kind": _TEXT, "level": _TEXT, "message": _TEXT, "entry": _TEXT, "path": _TEXT, "line": _NUMBER}
_READ: Shape = {
    "findings": [
        {
            "path": (str,),
            "line": (int,),
            "column": _NUMBER,
            "symbol": _TEXT,
            "verdict": _TEXT,
            "reason": _TEXT,
            "evidence": [{**_PROBLEM, "locations": [{"path": _TEXT, "line": _NUMBER}]}],
        }
    ],
    "compiler_only": [_PROBLEM],
    "compiles": [
        {
            "path": (str,),
            "name": _TEXT,
            "level": _TEXT,
            "status": _TEXT,
            "reason": _TEXT,
            "example": (bool, NULL),
            "compiled": {"path": _TEXT, "name": _TEXT},
        }
    ],
}
"""What :func:`add_verify_results` reads of verify's output."""


def read_verify_results(path: Path) -> dict[str, Any]:
    return read_json_object(path, "mslint verify --format json", {"findings": list, "compiles": list}, _READ)


def add_verify_results(document: dict[str, Any], results: dict[str, Any]) -> None:
    """Give each entry that ``results`` compiled its ``verified`` status and evidence, and each
    finding its ``verdict``; ``summary.verified`` counts the entries by confirmed status."""
    known = {_resolved(f["path"]): f["path"] for f in document["functions"] + document["findings"]}
    problems = [{**p, "path": known.get(_resolved(p["path"]), p["path"])} for p in _problems(results)]
    for entry in document["entries"]:
        compiles = [c for c in results["compiles"] if _compiles_entry(c, entry)]
        levels = {level: _confirmed(entry, level, compiles, problems) for level in LEVELS}
        entry["verified"] = levels if any(levels.values()) else None
        for level, confirmed in levels.items():
            if entry[level]["status"] == NO_FINDING and confirmed and confirmed["status"] == COMPILES:
                entry[level]["status"] = COMPILES
    document["summary"].update(level_counts(document["entries"]))
    verdicts = {_finding_key(f): f for f in results["findings"]}
    for finding in document["findings"]:
        found = verdicts.get(_finding_key(finding))
        finding["verdict"] = None if found is None else {"verdict": found.get("verdict"), "reason": found.get("reason")}
    verified = [e["verified"] for e in document["entries"] if e["verified"]]
    document["summary"]["verified"] = {
        "entries": len(verified),
        **{level: dict(Counter(v[level]["status"] for v in verified if v[level])) for level in LEVELS},
        "compiler_only": len(results.get("compiler_only") or []),
    }


def _resolved(path: object) -> str:
    try:
        return str(Path(str(path)).resolve())
    except (OSError, RuntimeError, ValueError):  # a NUL, a link loop: a path of no file, kept as written
        return str(path)


def _compiles_entry(compile_: Any, entry: dict[str, Any]) -> bool:
    """Whether a compile of verify built ``entry``: its class (a Cell, a ``@jit`` method's owner)
    or its function, in the same file. A compile of an ``--example`` factory built what its
    ``compiled`` names (the class or function the factory returned), in a file of its own."""
    built = (compile_.get("compiled") or {}) if compile_.get("example") else compile_
    return built.get("name") == entry["name"].split(".")[0] and _resolved(built.get("path")) == _resolved(entry["path"])


def _problems(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Every problem the compiler showed, once: the evidence of the findings and the compiler-only ones."""
    found: dict[tuple[Any, ...], dict[str, Any]] = {}
    for finding in results["findings"]:
        for problem in finding.get("evidence") or []:
            locations = problem.get("locations") or [{"path": finding.get("path"), "line": finding.get("line")}]
            for location in locations:
                _add(found, problem, location.get("path"), location.get("line"))
    for problem in results.get("compiler_only") or []:
        _add(found, problem, problem.get("path"), problem.get("line"))
    return list(found.values())


def _add(found: dict[tuple[Any, ...], dict[str, Any]], problem: dict[str, Any], path: Any, line: Any) -> None:
    item = {
        "kind": problem.get("kind"),
        "level": problem.get("level"),
        "message": problem.get("message"),
        "entry": problem.get("entry"),
        "path": None if path is None else str(path),
        "line": line_number(line),
    }
    found.setdefault(tuple(item.values()), item)


def _confirmed(
    entry: dict[str, Any], level: str, compiles: list[dict[str, Any]], problems: list[dict[str, Any]]
) -> dict[str, Any] | None:
    own = [c for c in compiles if c.get("level") == level]
    if not own:
        return None
    compile_ = own[0]
    evidence = [p for p in problems if p["entry"] == entry["name"] and p["level"] == level]
    if compile_.get("status") not in _RAN:
        return {"status": compile_.get("status"), "reason": compile_.get("reason"), "evidence": evidence}
    if compile_.get("stopped") or any(p["kind"] == _ERROR for p in evidence):
        status = FAILS
    elif level == LAX and any(p["kind"] == _FALLBACK for p in evidence):
        status = FALLS_BACK
    else:
        status = COMPILES
    return {"status": status, "reason": None, "evidence": evidence}


def _finding_key(finding: dict[str, Any]) -> tuple[str, Any, Any, Any]:
    return (_resolved(finding.get("path")), finding.get("line"), finding.get("column"), finding.get("symbol"))
