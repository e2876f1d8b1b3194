"""Shared by the scripts that read tables out of an installed MindSpore: write, or only compare."""

from __future__ import annotations

import difflib
import hashlib
import inspect
import json
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from importlib import metadata
from pathlib import Path
from typing import Any, NamedTuple

from graph_syntax.forms import Form

from mslint.cache_signature import signing_key
from mslint.verify import forkserver
from mslint.verify.cache import CACHE_FOLDER, keep_entry, read_entry, verifier_digest
from mslint.verify.processes import wait
from mslint.workers import Lifeline

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "mslint" / "data"


def write_or_check(name: str, text: str, summary: str) -> int:
    """Write ``mslint/data/<name>``; with ``--check`` on the command line, only say whether it matches."""
    path = OUTPUT / name
    if "--check" in sys.argv[1:]:
        current = path.read_text() if path.is_file() else ""
        print(f"{name} {'matches' if current == text else 'differs from'} the installed MindSpore")
        for line in differing_lines(current, text):
            print(line)
        return 0 if current == text else 1
    path.write_text(text)
    print(f"wrote {name}: {summary}")
    return 0


def differing_lines(shipped: str, measured: str, shown: int = 10) -> list[str]:
    """The first ``shown`` lines that differ, ``-`` as shipped and ``+`` as measured (a table's row is
    a line), each cut at 200 characters."""
    diff = difflib.unified_diff(shipped.splitlines(), measured.splitlines(), lineterm="", n=0)
    changed = [line for line in diff if line[:1] in ("+", "-") and not line.startswith(("+++", "---"))]
    return [line[:200] for line in changed[:shown]]


def chosen_forms(forms: Iterable[Form], only: list[str], noun: str = "form") -> list[Form]:
    """The forms whose id starts with one of the ``--only`` prefixes, all where none is given; where
    none does, an empty list, after saying so."""
    chosen = [form for form in forms if not only or any(form.id.startswith(prefix) for prefix in only)]
    if not chosen:
        print(f"no {noun} id starts with {', '.join(only)}", file=sys.stderr)
    return chosen


def shipped_rows(name: str, partial: bool) -> dict[str, Any]:
    """The rows of the shipped table ``mslint/data/<name>`` that a partial re-measure keeps; none where
    the whole table is measured."""
    path = OUTPUT / name
    rows: dict[str, Any] = json.loads(path.read_text())["rows"] if partial and path.is_file() else {}
    return rows


def installed_mindspore(script: str) -> str | None:
    """The version of the installed MindSpore; None, after saying so, where none is installed."""
    try:
        return metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        print(f"{script}: MindSpore is not installed in this environment", file=sys.stderr)
        return None


def outcome_summary(rows: Mapping[str, Any], compiles: int, seconds: float) -> str:
    """How many rows and compiles a measurement made, and its outcomes by kind (``error 12, ...``)."""
    counts = Counter(c[0] for row in rows.values() for levels in row["outcomes"].values() for c in levels.values())
    outcomes = ", ".join(f"{kind} {n}" for kind, n in counts.most_common())
    return f"{len(rows)} rows, {compiles} compiles in {seconds:.0f} s; {outcomes}"


def capture_table(mode: str, version: str, rows: Mapping[str, Any]) -> str:
    """A capture mode's table as compact, deterministic JSON, a row per line."""
    head = json.dumps({"capture_mode": mode, "mindspore": version}, sort_keys=True)
    lines = [
        f"{json.dumps(key)}:{json.dumps(rows[key], sort_keys=True, separators=(',', ':'))}" for key in sorted(rows)
    ]
    return head[:-1] + ',"rows":{\n' + ",\n".join(lines) + "\n}}\n"


class ChildRun(NamedTuple):
    """What one measuring child printed as ``RESULT {json}``, or why it printed nothing."""

    result: dict[str, Any] | None
    timed_out: bool = False
    last_error: str = ""
    """The last line the child wrote on stderr, where it printed no result."""


def run_child(arguments: list[str], cwd: Path, timeout: float) -> ChildRun:
    """Run ``python ARGUMENTS`` (one measurement) in ``cwd``, MindSpore's log quiet, and read its
    result line. The child is forked from a process that has imported MindSpore and nothing else
    (:func:`mslint.verify.forkserver.start_python`): a fresh process's import, 1.3 to 1.8 CPU-s,
    was most of a measurement's cost (a bytecode-table form: 2.1 CPU-s, 1.8 of them the import)."""
    environment = {**os.environ, "GLOG_v": "3"}
    with Lifeline() as lifeline, tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        child = forkserver.start_python(arguments, str(cwd), environment, (stdout, stderr), lifeline.read_end)
        if wait(child, timeout) is None:
            return ChildRun(None, timed_out=True)
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read().decode(errors="replace"), stderr.read().decode(errors="replace")
    line = next((x for x in out.splitlines() if x.startswith("RESULT ")), None)
    if line is None:
        return ChildRun(None, last_error=(err.strip().splitlines() or [""])[-1])
    return ChildRun(json.loads(line[len("RESULT ") :]))


class MeasurementCache:
    """Measurements kept by what decides them, so that a check re-measures only what changed since
    one that ran here (in ``.mslint_cache/tables`` of the repository, or ``$MSLINT_CACHE_DIR/tables``).

    An entry's key is what was measured (the program's text and how it ran), the installed MindSpore
    and this Python, and the content of what reads a measurement: the source of the generator's
    functions that make a measurement into a verdict (``reading``), and the verifier's files
    (:func:`mslint.verify.cache.verifier_digest`). As verify's result cache does, an entry
    is signed with the user's key (:mod:`mslint.cache_signature`): one from elsewhere (a pull request,
    a shared store) is never read. The caller keeps only what ran to its end: a crash or a timeout
    may not happen again."""

    def __init__(self, *reading: object) -> None:
        self._folder = Path(os.environ.get("MSLINT_CACHE_DIR") or REPO / CACHE_FOLDER) / "tables"
        sources = (inspect.getsource(part) if callable(part) else repr(part) for part in reading)
        self._reading = hashlib.sha256("\0".join(sources).encode()).hexdigest()
        self._signer = signing_key()

    def lookup(self, asked: Mapping[str, Any]) -> Any:
        """The measurement kept for ``asked``; None where none is."""
        if self._signer is None:
            return None
        key = self._key(asked)
        entry = read_entry(self._place(key), key, self._signer)
        return None if entry is None else entry.get("measured")

    def keep(self, asked: Mapping[str, Any], measured: Any) -> None:
        """Keep ``measured`` for ``asked``; nothing where the folder cannot be written to."""
        if self._signer is None:
            return
        key = self._key(asked)
        keep_entry(self._place(key), {"key": key, "measured": measured}, self._signer)

    def _key(self, asked: Mapping[str, Any]) -> str:
        decided_by = {
            "asked": asked,
            "reading": self._reading,
            "verifier": verifier_digest(),
            "mindspore": metadata.version("mindspore"),
            "python": sys.version.split()[0],
        }
        return hashlib.sha256(json.dumps(decided_by, sort_keys=True).encode()).hexdigest()

    def _place(self, key: str) -> Path:
        return self._folder / key[:2] / f"{key}.json"


def kept_verdict(
    cache: MeasurementCache, asked: Mapping[str, Any], measure: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """A capture table's verdict on what ``asked`` describes: the one ``cache`` keeps, or the one
    ``measure()`` makes, kept unless it crashed or timed out (either may not happen again)."""
    kept = cache.lookup(asked)
    if kept is not None:
        return dict(kept)
    verdict = measure()
    if verdict["verdict"] not in ("crashed", "timed-out"):
        cache.keep(asked, verdict)
    return verdict
