"""Compile jobs in child processes: each in its own process group, with a timeout, in parallel.

A child that crashes, hangs or runs out of memory becomes an outcome that says so; it never
stops the other jobs. The parent never imports MindSpore or the user's code.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mslint.verify.compiler_output import Problem

COMPILED, NOT_VERIFIABLE, CRASHED, TIMED_OUT = "compiled", "not-verifiable", "crashed", "timed-out"
LEVELS = ("strict", "lax")


@dataclass(frozen=True)
class Job:
    """Compile ``NAME`` of ``path`` (or what the factory ``NAME()`` returns) at one syntax level."""

    path: Path
    name: str
    level: str
    inputs: str = ""
    kwargs: dict[str, Any] = field(default_factory=dict)
    factory: bool = False

    @property
    def label(self) -> str:
        return f"{self.path.name}:{self.name}"


@dataclass
class Outcome:
    job: Job
    status: str
    reason: str | None = None
    compiled: dict[str, Any] | None = None
    """What was compiled: ``path``, ``name`` and ``line`` of the Cell class or function."""
    problems: list[Problem] = field(default_factory=list)
    device: str | None = None
    compile_s: float | None = None
    """The compiler's own time for the compile, measured in the child."""
    wall_s: float = 0.0
    """The child process from start to exit: interpreter, MindSpore import, build and compile."""

    @property
    def compiled_key(self) -> tuple[str, str] | None:
        if self.status != COMPILED or not self.compiled or not self.compiled.get("path"):
            return None
        return (str(self.compiled["path"]), str(self.compiled["name"]))


def run_jobs(jobs: list[Job], timeout: float, workers: int, device: str | None) -> list[Outcome]:
    """Run every job; the outcomes come back in the order of ``jobs``."""
    if not jobs:
        return []
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(lambda job: run_job(job, timeout, device), jobs))


def run_job(job: Job, timeout: float, device: str | None) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="mslint-verify-") as scratch:
        output, log = Path(scratch, "result.json"), Path(scratch, "child.log")
        command = [
            sys.executable,
            "-m",
            "mslint.verify.probe",
            f"{job.path}:{job.name}",
            "--level",
            job.level,
            "--inputs",
            job.inputs,
            "--kwargs",
            json.dumps(job.kwargs),
            "--output",
            str(output),
        ]
        command += ["--factory"] if job.factory else []
        command += ["--device", device] if device else []
        started = time.perf_counter()
        with log.open("wb") as log_stream:
            child = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log_stream,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                returncode = child.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                kill_group(child)
                return Outcome(job, TIMED_OUT, f"no result within the {timeout:g} s timeout (compile killed)")
        wall_s = round(time.perf_counter() - started, 3)
        if returncode == 0 and output.is_file():
            return _outcome(job, json.loads(output.read_text()), wall_s)
        return Outcome(job, CRASHED, _failure(returncode, log.read_text(errors="replace")), wall_s=wall_s)


def kill_group(child: subprocess.Popen[Any]) -> None:
    """Kill the child and anything it started (compile workers)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(child.pid, signal.SIGKILL)
    child.wait()


def _outcome(job: Job, result: dict[str, Any], wall_s: float) -> Outcome:
    return Outcome(
        job,
        str(result["status"]),
        result.get("reason"),
        result.get("target"),
        [Problem.from_json(p) for p in result.get("problems", [])],
        result.get("device"),
        result.get("compile_s"),
        wall_s,
    )


def _failure(returncode: int, log: str) -> str:
    """One line on how a child died."""
    if returncode < 0:
        name = signal.Signals(-returncode).name
        if -returncode == signal.SIGKILL:
            return f"compiler process was killed ({name}), most likely for running out of memory"
        return f"compiler process crashed ({name})"
    last = next((line.strip() for line in reversed(log.splitlines()) if line.strip()), "")
    if "MemoryError" in last:
        return "compiler process ran out of memory (MemoryError)"
    return f"compiler process exited with status {returncode}: {last[:300]}"
