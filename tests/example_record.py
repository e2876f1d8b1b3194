"""The committed record of what the compiler said of each rules/ example: ``tests/records/``.

Compiling every example (each entry at STRICT and LAX, and the ``msrun`` replicas of
distributed-without-seed) was about 280 CPU-s of each CI run, re-measuring facts of the release
that had not changed. An example's record is keyed by the hash of its source (with the sibling
modules it imports), the target it is verified for and the MindSpore release: an example whose key
the record does not hold (a new or edited example, another release) is compiled, as is one in
``SAMPLE_STRIDE`` of the rest (another each day), which must say again what the record holds, for
what the key leaves out (the verifier, the reading of a compile into verdicts). The examples captured from bytecode are
never recorded: whether the release captures them at all depends on the Python.

Only a run that compiled writes the record (``pytest tests/test_rule_examples.py -m mindspore
--update-example-compiles``: the examples the record does not hold, then the record holds every
current example's facts and nothing else); a record that lacks an example or holds one no example
has any more fails ``test_the_record_holds_every_example``.
"""

from __future__ import annotations

import ast
import hashlib
import json
from datetime import datetime, timezone
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from tests.examples import RULES_DIR, example_files, example_target, uses_bytecode_capture

RECORDS = Path(__file__).parent / "records"
SAMPLE_STRIDE = 10
"""One recorded example in this many (by its place among the examples) is compiled again each run."""
SAMPLE_TURN = datetime.now(timezone.utc).date().toordinal() % SAMPLE_STRIDE
"""Which of them: the sample turns with the date, so that every example is compiled again within
``SAMPLE_STRIDE`` days (an entry the sample never reached would never be checked again)."""
UPDATE_OPTION = "--update-example-compiles"


def mindspore_version() -> str:
    """The installed release, read without importing it (several CPU-s per process)."""
    try:
        return version("mindspore")
    except PackageNotFoundError:
        return "none"


def record_path() -> Path:
    return RECORDS / f"example-compiles-{mindspore_version()}.json"


@cache
def recorded_examples() -> list[Path]:
    """The examples whose facts the record holds: all but those captured from bytecode."""
    return [path for path in example_files() if not uses_bytecode_capture(path)]


def example_key(path: Path) -> str:
    """The hash of what decides the compiler's answer on ``path``: its source and the sources of
    the sibling modules it imports (at any depth), its target, the MindSpore release."""
    sources: dict[str, str] = {}
    pending = [path]
    while pending:
        current = pending.pop()
        text = current.read_text(encoding="utf-8")
        sources[current.name] = text
        for name in _imported_modules(text):
            sibling = path.parent / f"{name}.py"
            if sibling.is_file() and sibling.name not in sources:
                pending.append(sibling)
    decided_by = {"sources": sources, "target": example_target(path), "mindspore": mindspore_version()}
    return hashlib.sha256(json.dumps(decided_by, sort_keys=True).encode()).hexdigest()[:32]


def _imported_modules(text: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def facts(report: dict[str, Any]) -> dict[str, Any]:
    """What the example test reads of ``mslint verify``'s report: each compile's status and
    stage, the compiler's problems on unmarked lines, each finding's verdict."""
    return {
        "compiles": sorted(
            ({"example": c["example"], "status": c["status"], "stopped": c["stopped"]} for c in report["compiles"]),
            key=lambda c: json.dumps(c, sort_keys=True),
        ),
        "compiler_only": report["compiler_only"],
        "findings": sorted(
            ({"line": f["line"], "symbol": f["symbol"], "verdict": f["verdict"]} for f in report["findings"]),
            key=lambda f: (f["line"], f["symbol"]),
        ),
    }


class ExampleRecord:
    """The record read at creation; :meth:`keep` gathers the facts a run compiled, :meth:`write`
    makes the new record of them and of what it held for the current examples."""

    def __init__(self) -> None:
        path = record_path()
        self.held: dict[str, Any] = json.loads(path.read_text())["examples"] if path.is_file() else {}
        self.kept: dict[str, Any] = {}

    def lookup(self, path: Path) -> dict[str, Any] | None:
        entry = self.held.get(example_key(path))
        return None if entry is None else entry["facts"]

    def sampled(self, path: Path) -> bool:
        return recorded_examples().index(path) % SAMPLE_STRIDE == SAMPLE_TURN

    def keep(self, path: Path, example_facts: dict[str, Any]) -> None:
        self.kept[example_key(path)] = {"example": str(path.relative_to(RULES_DIR)), "facts": example_facts}

    def write(self) -> None:
        current = {example_key(path) for path in recorded_examples()}
        entries = {key: value for key, value in {**self.held, **self.kept}.items() if key in current}
        lines = [f"{json.dumps(key)}:{json.dumps(entries[key], sort_keys=True)}" for key in sorted(entries)]
        RECORDS.mkdir(exist_ok=True)
        head = json.dumps({"mindspore": mindspore_version()})[:-1]
        record_path().write_text(head + ',"examples":{\n' + ",\n".join(lines) + "\n}}\n")
