"""Verify a rules/ example with ``mslint verify --example``, one factory per compile entry."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from tests.examples import REPO, compile_entries

VERIFY_TIMEOUT_S = 600


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
    (folder / "factories.py").write_text("\n".join(lines) + "\n")
    return arguments


def _is_class(path: Path, name: str) -> bool:
    return any(line.startswith(f"class {name}") for line in path.read_text().splitlines())


@cache
def verify_example(path: Path) -> dict[str, Any]:
    """The ``--format json`` report of verifying ``path`` through example factories only."""
    with tempfile.TemporaryDirectory(prefix="mslint-examples-") as folder:
        examples = [arg for factory in example_factories(path, Path(folder)) for arg in ("--example", factory)]
        command = [sys.executable, "-m", "mslint", "verify", str(path), "--format", "json", *examples]
        result = subprocess.run(command, capture_output=True, text=True, timeout=VERIFY_TIMEOUT_S, cwd=REPO)
    if result.returncode not in (0, 1):
        raise AssertionError(f"mslint verify {path.name} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    report: dict[str, Any] = json.loads(result.stdout)
    return report
