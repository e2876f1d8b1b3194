"""Verify a rules/ example with ``mslint verify --example``, one factory per compile entry.

The factories of an example are written to the same place on every run (under the
repository's ``.mslint_cache``), so that verify's result cache, whose key names the factory's
file, serves the compiles whose files have not changed since the last run (in a temporary
folder, each run was a new key: every compile ran again and the cache only grew).

The same cache lets many examples compile in one run (:func:`compile_examples`): one batch of
compiles per core imports MindSpore, where a verify of each example imported it twice (its
probe of the device, its batch), 129 examples at about 2 s of CPU each. Each example's own
verify then reads its compiles from the cache and judges its findings alone, in this process
(its probe of MindSpore is made once per process)."""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from mslint.atomic_write import write_atomically
from mslint.cli import main
from tests.examples import REPO, compile_entries, example_target

VERIFY_TIMEOUT_S = 600
EXAMPLE_TIMEOUT_S = 1800
"""verify's ``--timeout`` for an example's compiles and its ``msrun`` replicas: ``msrun`` of
distributed-without-seed/bad_seed_per_rank.py took 58 s alone and past verify's default 300 s at
a load of 4-9; thirty times the idle time keeps a loaded machine from failing the test."""
FACTORIES = REPO / ".mslint_cache" / "example-factories"


def example_factories(path: Path) -> list[str]:
    """Write a module of factories, ``make_<Entry>() -> (entry, inputs)``; return the --example args.
    The inputs an example's ``__main__`` block makes (:attr:`Entry.made`) are written as there,
    among the example's own names (``from example import *``)."""
    folder = FACTORIES / path.parent.name / path.stem
    lines = [
        "import sys",
        f"sys.path.insert(0, {str(path.parent)!r})",
        f"import {path.stem} as example",
        "from mslint.model.inputs import parse_input_specs",
        "from mslint.verify.probe import make_inputs",
    ]
    arguments = []
    for entry in compile_entries(path):
        build = f"example.{entry.name}" + (f"({entry.arguments})" if _is_class(path, entry.name) else "")
        specs = f"make_inputs(parse_input_specs({entry.inputs!r}), concrete=False)"
        inputs = f"({entry.made})" if entry.made else specs
        lines += [f"def make_{entry.name}():", f"    return {build}, {inputs}"]
        arguments.append(f"{folder / 'factories.py'}:make_{entry.name}")
    if any(entry.made for entry in compile_entries(path)):
        lines.insert(3, f"from {path.stem} import *")  # before the harness's own names, which stay theirs
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / "factories.py", ("\n".join(lines) + "\n").encode())  # two runs may write it at once
    return arguments


def _is_class(path: Path, name: str) -> bool:
    return any(line.startswith(f"class {name}") for line in path.read_text().splitlines())


def compile_examples(paths: Iterable[Path]) -> None:
    """Compile every entry of ``paths`` in one ``mslint verify`` run, on every core, for the result
    cache only: its report is not read (a finding's verdict is judged by each example's own run,
    which compiles again whatever this run did not record, a compile that crashed for one, and
    starts the msrun ranks of its replica check, which build that example's Cells alone).

    One such run at a time on each Python (whose version is part of the cache's key): a second
    process (another pytest -n worker, where the xdist group did not keep the examples together)
    waits for the first and finds its compiles recorded."""
    paths = sorted(paths)
    FACTORIES.mkdir(parents=True, exist_ok=True)
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    with (FACTORIES / f"compiling-python{python}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        examples = [arg for path in paths for factory in example_factories(path) for arg in ("--example", factory)]
        timeout = ["--timeout", str(EXAMPLE_TIMEOUT_S)]
        command = [sys.executable, "-m", "mslint", "verify", *map(str, paths), "--format", "json", *timeout]
        command += ["--no-replicas", *examples]
        subprocess.run(command, capture_output=True, timeout=VERIFY_TIMEOUT_S * len(paths), cwd=REPO)


@cache
def verify_example(path: Path) -> dict[str, Any]:
    """The ``--format json`` report of verifying ``path`` through example factories only."""
    examples = [arg for factory in example_factories(path) for arg in ("--example", factory)]
    # One compile batch: the suite runs examples side by side (pytest -n), and each batch more
    # imports MindSpore again (rules/variable-slice/bad.py: 7.6 s of CPU with two, 5.4 s with one).
    timeout = ("--timeout", str(EXAMPLE_TIMEOUT_S))
    target = ("--target", example_target(path))
    code, out, err = _mslint("verify", str(path), "--format", "json", "--jobs", "1", *timeout, *target, *examples)
    if code not in (0, 1):
        raise AssertionError(f"mslint verify {path.name} failed ({code}):\n{err[-3000:]}")
    report: dict[str, Any] = json.loads(out)
    return report


def _mslint(*args: str) -> tuple[int, str, str]:
    """Run the mslint command line in this process, from the repository: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(REPO)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()
