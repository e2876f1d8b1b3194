"""Evidence for ``distributed-without-seed``: build the Cells on two ranks under ``msrun``, compare.

For the file of each finding, ``msrun`` starts two CPU ranks (plus its scheduler) on a small
driver. Each rank calls ``mindspore.communication.init()``, imports the user's module (which
may call ``init()`` itself: a second call is harmless), builds the Cells ``mslint verify``
would compile (the file's buildable Cell targets and the ``--example`` factories), and writes
a digest of every Parameter's initial value. Ranks that disagree confirm the finding on its
``init()`` line. ``msrun`` starts each worker in a session of its own, so a timeout (or an
interrupted run) kills the workers' process groups as well as msrun's. About 20 s per file on
a 2-core machine: the result cache (:mod:`mslint.verify.cache`) keeps the ranks' records, with
the source file of each Cell built, so that a rerun starts no ``msrun`` while nothing they
depend on changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mslint.diagnostics import Diagnostic
from mslint.verify.compiler_output import Problem
from mslint.verify.guard import guarded
from mslint.verify.literals_json import kwargs_from_json, kwargs_to_json
from mslint.verify.processes import end_group, signal_group, wait
from mslint.verify.targets import Target
from mslint.verify.verdicts import CONFIRMED, NOT_REPRODUCED, NOT_VERIFIABLE, Verdict

if TYPE_CHECKING:  # each rank imports this module: not the cache's project model
    from mslint.verify.cache import ResultCache

REPLICAS = "replica-divergence"
SYMBOL = "distributed-without-seed"
RANKS = 2

_DRIVER = "import sys\nfrom mslint.verify.replicas import rank_main\nrank_main(sys.argv[1], sys.argv[2])\n"


def verify_replicas(
    diagnostics: list[Diagnostic],
    targets: list[Target],
    examples: list[tuple[Path, str]],
    timeout: float,
    cache: ResultCache | None,
) -> dict[int, Verdict]:
    """Verdicts for the ``distributed-without-seed`` findings, by ``id(diagnostic)``: one
    ``msrun`` per file that has any, unless ``cache`` holds its ranks' records."""
    by_path: dict[Path, list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.symbol == SYMBOL:
            by_path.setdefault(Path(diagnostic.path).resolve(), []).append(diagnostic)
    verdicts: dict[int, Verdict] = {}
    for path, findings in by_path.items():
        builds = _builds(path, targets, examples)
        if not builds:
            reason = "no Cell to build on the ranks: give the file's Cells input specs, or an --example factory"
            outcome: tuple[str, str] = (NOT_VERIFIABLE, reason)
        else:
            outcome = compare_ranks(_ranks(builds, timeout, cache))
        for finding in findings:
            verdict, text = outcome
            if verdict == CONFIRMED:
                problem = Problem(REPLICAS, text, ((str(path), finding.line),))
                verdicts[id(finding)] = Verdict(finding, CONFIRMED, [problem])
            else:
                verdicts[id(finding)] = Verdict(finding, verdict, reason=text)
    return verdicts


def not_run(diagnostics: list[Diagnostic]) -> dict[int, Verdict]:
    """The ``distributed-without-seed`` findings' verdicts when no ``msrun`` is to be started."""
    reason = "--no-replicas: the Cells were not built on msrun ranks"
    return {id(d): Verdict(d, NOT_VERIFIABLE, reason=reason) for d in diagnostics if d.symbol == SYMBOL}


def _ranks(builds: list[dict[str, Any]], timeout: float, cache: ResultCache | None) -> list[dict[str, Any]] | str:
    """The ranks' records of ``builds``: recorded in ``cache``, or run now (and recorded)."""
    recorded = cache.lookup_ranks(builds) if cache is not None else None
    if recorded is not None:
        return recorded
    records = run_ranks(builds, timeout)
    if cache is not None and not isinstance(records, str):  # msrun ended, and each rank wrote
        cache.store_ranks(builds, records)
    return records


def _builds(path: Path, targets: list[Target], examples: list[tuple[Path, str]]) -> list[dict[str, Any]]:
    """What each rank builds: the file's targets that need no factory (or, when it has none,
    every checked file's), and every example factory."""
    buildable = [t for t in targets if not t.unbuildable]
    chosen = [t for t in buildable if t.path == path] or buildable
    return [
        {"path": str(t.path), "name": t.name, "kwargs": kwargs_to_json(t.kwargs), "factory": False} for t in chosen
    ] + [{"path": str(file.resolve()), "name": name, "kwargs": {}, "factory": True} for file, name in examples]


def run_ranks(builds: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]] | str:
    """Each rank's record (``cells``: label -> Parameter name -> digest, ``sources``: the files of
    the Cells built, ``error``), or why there are none."""
    with tempfile.TemporaryDirectory(prefix="mslint-replicas-") as scratch:
        folder = Path(scratch)
        (folder / "bin").mkdir()
        python = folder / "bin" / "python"  # msrun starts its workers as `python SCRIPT`: this interpreter
        python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        python.chmod(0o755)
        (folder / "driver.py").write_text(_DRIVER)
        (folder / "builds.json").write_text(json.dumps(builds))
        command = [
            sys.executable,
            "-m",
            "mindspore.parallel.cluster.run",
            f"--worker_num={RANKS}",
            f"--local_worker_num={RANKS}",
            f"--master_port={_free_port()}",
            "--join=True",
            f"--log_dir={folder / 'logs'}",
            str(folder / "driver.py"),
            str(folder / "builds.json"),
            str(folder),
        ]
        environment = {**os.environ, "PATH": f"{folder / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
        with (folder / "msrun.log").open("wb") as log:
            child = subprocess.Popen(
                command,
                cwd=folder,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            with guarded(child, folder):
                returncode = wait(child, timeout, end=_kill_msrun)
        if returncode is None:
            return f"msrun did not finish within the {timeout:g} s timeout (killed)"
        records = [json.loads(p.read_text()) for p in sorted(folder.glob("rank_*.json"))]
        if returncode != 0 or len(records) != RANKS:
            return f"msrun with {RANKS} CPU ranks exited with status {returncode}: {_last_error(folder)}"
        return records


def compare_ranks(records: list[dict[str, Any]] | str) -> tuple[str, str]:
    """The verdict and its evidence or reason."""
    if isinstance(records, str):
        return NOT_VERIFIABLE, records
    errors = [str(r["error"]) for r in records if r["error"]]
    if errors:
        return NOT_VERIFIABLE, f"a rank could not build the Cells: {errors[0]}"
    first, second = records[0]["cells"], records[1]["cells"]
    if not first:
        return NOT_VERIFIABLE, "the ranks built no Cell with Parameters"
    differing = {
        label: [name for name, digest in parameters.items() if second.get(label, {}).get(name) != digest]
        for label, parameters in first.items()
    }
    summary = ", ".join(f"{label} ({len(names)} of {len(first[label])})" for label, names in differing.items() if names)
    if not summary:
        built = ", ".join(first)
        return NOT_REPRODUCED, f"under msrun, the {RANKS} ranks built {built} with identical initial Parameters"
    return CONFIRMED, f"under msrun, rank 0 and rank 1 built different initial Parameters: {summary}"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _kill_msrun(child: subprocess.Popen[Any]) -> None:
    """Kill msrun's workers, while it still runs (each leads a process group of its own), and
    msrun's group (itself, the scheduler)."""
    workers: list[int] = []
    if child.poll() is None:  # once msrun is reaped, its pid may be another process's
        for children in Path(f"/proc/{child.pid}/task").glob("*/children"):
            with contextlib.suppress(OSError, ValueError):
                workers += [int(pid) for pid in children.read_text().split()]
    for pid in workers:
        signal_group(pid, signal.SIGKILL)
    end_group(child)


def _last_error(folder: Path) -> str:
    """The last line of the workers' logs that is not MindSpore's own log format, else of msrun's."""
    logs = [*sorted((folder / "logs").glob("worker_*.log")), folder / "msrun.log"]
    for log in logs:
        lines = log.read_text(errors="replace").splitlines() if log.is_file() else []
        last = next((line.strip() for line in reversed(lines) if line.strip() and not line.startswith("[")), None)
        if last:
            return last[:300]
    return "no output"


def rank_main(builds_file: str, out_folder: str) -> None:
    """One rank, in a worker that msrun started: init, build, write ``rank_<r>.json``."""
    import mindspore as ms
    from mindspore.communication import get_rank, init

    from mslint.verify.probe import NotVerifiable, build, describe, load_module

    ms.set_device("CPU")
    init()  # in msrun's scheduler process, this serves the cluster and exits
    record: dict[str, Any] = {"cells": {}, "sources": [], "error": None}
    try:
        for job in json.loads(Path(builds_file).read_text()):
            module = load_module(Path(job["path"]))
            kwargs = kwargs_from_json(job["kwargs"])
            cell, _ = build(module, job["name"], job["factory"], [], kwargs, lambda path: False)
            if isinstance(cell, ms.nn.Cell):
                label = f"{job['name']}()" if job["factory"] else str(job["name"])
                record["sources"].append(describe(cell)["path"])  # the result cache's dependencies
                record["cells"][label] = {
                    p.name: hashlib.sha256(p.asnumpy().tobytes()).hexdigest() for p in cell.get_parameters()
                }
    except NotVerifiable as error:
        record["error"] = str(error)
    except Exception as error:  # the user's code failing to import is the reason to report
        record["error"] = f"{type(error).__name__}: {error}"
    Path(out_folder, f"rank_{get_rank()}.json").write_text(json.dumps(record))
