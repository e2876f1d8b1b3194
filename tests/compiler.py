"""Verify a rules/ example with ``mslint verify --example``, one factory per compile entry.

The factories of an example are written to the same place on every run (under the
repository's ``.mslint_cache``), so that verify's result cache, whose key names the factory's
file, serves the compiles whose files have not changed since the last run (in a temporary
folder, each run was a new key: every compile ran again and the cache only grew)."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from mslint.atomic_write import write_atomically
from tests.examples import REPO, compile_entries

VERIFY_TIMEOUT_S = 600
FACTORIES = REPO / ".mslint_cache" / "example-factories"


def example_factories(path: Path, folder: Path) -> list[str]:
    """Write a module of factories, ``make_<Entry>() -> (entry, inputs)``; return the --example args."""
    lines = [
        "import sys",
        f"sys.path.insert(0, {str(path.parent)!r})",
        f"import {path.stem} as example",
        "from mslint.verify.inputs import parse_input_specs",
        "from mslint.verify.probe import make_inputs",
    ]
    arguments = []
    for entry in compile_entries(path):
        build = f"example.{entry.name}" + ("()" if _is_class(path, entry.name) else "")
        lines += [
            f"def make_{entry.name}():",
            f"    return {build}, make_inputs(parse_input_specs({entry.inputs!r}), concrete=False)",
        ]
        arguments.append(f"{folder / 'factories.py'}:make_{entry.name}")
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / "factories.py", ("\n".join(lines) + "\n").encode())  # two runs may write it at once
    return arguments


def _is_class(path: Path, name: str) -> bool:
    return any(line.startswith(f"class {name}") for line in path.read_text().splitlines())


@cache
def verify_example(path: Path) -> dict[str, Any]:
    """The ``--format json`` report of verifying ``path`` through example factories only."""
    folder = FACTORIES / path.parent.name / path.stem
    examples = [arg for factory in example_factories(path, folder) for arg in ("--example", factory)]
    # One compile batch: the suite runs examples side by side (pytest -n), and each batch more
    # imports MindSpore again (rules/variable-slice/bad.py: 7.6 s of CPU with two, 5.4 s with one).
    command = [sys.executable, "-m", "mslint", "verify", str(path), "--format", "json", "--jobs", "1", *examples]
    result = subprocess.run(command, capture_output=True, text=True, timeout=VERIFY_TIMEOUT_S, cwd=REPO)
    if result.returncode not in (0, 1):
        raise AssertionError(f"mslint verify {path.name} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    report: dict[str, Any] = json.loads(result.stdout)
    return report
