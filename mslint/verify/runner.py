"""Compile jobs in child processes, in parallel: each child imports MindSpore once and forks
a process per compile (:mod:`mslint.verify.batch`), in its own process group, with a timeout;
the children take the jobs from one shared list.

A compile that crashes, hangs or runs out of memory becomes an outcome that says so; it never
stops the other jobs. The parent never imports MindSpore or the user's code.
"""

from __future__ import annotations

import json
import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mslint.verify import forkserver
from mslint.verify.compiler_output import Problem
from mslint.verify.literals_json import kwargs_to_json
from mslint.verify.processes import wait
from mslint.verify.statuses import CRASHED, RAN, failure_reason
from mslint.workers import Lifeline, available_cores

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
    compare: bool = False
    """After a successful compile, also run the entry in graph mode and in PyNative and report
    what differs as ``divergence`` problems (:mod:`mslint.verify.divergence`)."""
    candidates: tuple[str, ...] = ()
    """Input specs to try, in order, when the compile on ``inputs`` fails at their shape."""
    synthesised: bool = False
    """``inputs`` and ``candidates`` were read off the Cell's first layer: a compile that still
    fails at a shape on the last of them says nothing of the program's own inputs."""

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
    """The compile's process from fork to exit: import of the user's code, build and compile."""
    comparison: dict[str, Any] | None = None
    """For a job with ``compare``: ``status`` (``compared``, ``not-comparable``, ``not-run``),
    ``reason`` and ``seconds``; None when nothing was compared (the compile failed)."""
    stopped: str | None = None
    """For a job that ran: ``build`` or ``compile`` when an error ended it there, else None."""
    cached: bool = False
    """Recorded by an earlier run whose inputs were the same (:mod:`mslint.verify.cache`): not run now."""
    stubbed: list[str] = field(default_factory=list)
    """Third-party packages that were not installed and were replaced by stubs to import the
    user's module (:mod:`mslint.verify.stubs`)."""
    inputs: str | None = None
    """The input specs the entry was compiled on: the job's, or the candidate that was tried last."""

    def result_json(self) -> dict[str, Any]:
        """What the compile found, without its job and its problems."""
        return {
            "status": self.status,
            "reason": self.reason,
            "compiled": self.compiled,
            "device": self.device,
            "compile_s": self.compile_s,
            "wall_s": self.wall_s,
            "comparison": self.comparison,
            "stopped": self.stopped,
            "cached": self.cached,
            "stubbed": self.stubbed,
            "inputs": self.inputs,
        }

    @classmethod
    def from_result_json(cls, job: Job, data: dict[str, Any], problems: list[Problem], cached: bool) -> Outcome:
        """The inverse of :meth:`result_json`."""
        return cls(
            job,
            str(data["status"]),
            data["reason"],
            data["compiled"],
            problems,
            data["device"],
            data["compile_s"],
            float(data["wall_s"]),
            data["comparison"],
            data["stopped"],
            cached,
            list(data.get("stubbed") or []),
            data.get("inputs"),
        )

    @property
    def compiled_key(self) -> tuple[str, str] | None:
        if self.status not in RAN or not self.compiled or not self.compiled.get("path"):
            return None
        return (str(self.compiled["path"]), str(self.compiled["name"]))


def default_memory_limit_mib(workers: int) -> int | None:
    """Three quarters of the machine's memory, shared among the compiles that run at once (None
    where the system does not say how much it has)."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return max(1, total * 3 // 4 // max(1, workers) >> 20) if total > 0 else None


def run_jobs(
    jobs: list[Job], timeout: float, workers: int, device: str | None, memory_limit_mib: int | None = None
) -> list[Outcome]:
    """Run every job, in ``workers`` child processes; the outcomes come back in the order of ``jobs``.
    A compile whose resident memory passes ``memory_limit_mib`` is killed.

    The children share one list and each claims the next job nobody has claimed
    (:func:`mslint.verify.batch.claim`): a child that drew the slow compiles (a large model, the
    LAX compiles with their comparison) does not keep the others waiting."""
    if not jobs:
        return []
    count = min(len(jobs), max(1, workers), available_cores())
    # a verify that is killed takes its batches, their compiles and this folder with it
    with Lifeline() as lifeline, tempfile.TemporaryDirectory(prefix="mslint-verify-") as scratch:
        job_file, results = Path(scratch, "jobs.json"), Path(scratch, "results")
        results.mkdir()
        job_file.write_text(json.dumps([_job_json(job) for job in jobs]))
        with ThreadPoolExecutor(max_workers=count) as pool:
            endings = list(
                pool.map(
                    lambda worker: run_batch(
                        job_file, results, worker, len(jobs), timeout, device, memory_limit_mib, lifeline.read_end
                    ),
                    range(count),
                )
            )
        return [_outcome(job, results, index, endings) for index, job in enumerate(jobs)]


def run_batch(
    job_file: Path,
    results: Path,
    worker: int,
    jobs: int,
    timeout: float,
    device: str | None,
    memory_limit_mib: int | None,
    lifeline: int,
) -> str:
    """One child (:mod:`mslint.verify.batch`), which claims jobs and forks a process per compile;
    how it ended, for the jobs it claimed and left without a record. The child follows
    ``lifeline`` (the read end of a :class:`mslint.workers.Lifeline`): when this process ends
    it kills its compile and removes this run's temporary folder, the one that holds ``results``."""
    log = results.parent / f"child{worker}.log"
    arguments = [str(job_file), str(results), "--scratch", str(results.parent)]
    arguments += ["--worker", str(worker), "--timeout", f"{timeout:g}"]
    arguments += ["--device", device] if device else []
    arguments += ["--memory-limit", str(memory_limit_mib)] if memory_limit_mib else []
    guard = timeout * jobs + 120  # each compile has its own timeout in the child; this guards the child
    with log.open("wb") as log_stream:
        child = forkserver.start("mslint.verify.batch", arguments, (log_stream, log_stream), lifeline)
        returncode = wait(child, guard)
    if returncode is None:
        return f"the compile batch did not finish within {guard:g} s (killed)"
    return failure_reason(returncode, log.read_text(errors="replace"))


def _job_json(job: Job) -> dict[str, Any]:
    return {
        "target": f"{job.path.resolve()}:{job.name}",
        "level": job.level,
        "inputs": job.inputs,
        "kwargs": kwargs_to_json(job.kwargs),
        "factory": job.factory,
        "compare": job.compare,
        "candidates": list(job.candidates),
        "synthesised": job.synthesised,
    }


def _outcome(job: Job, results: Path, index: int, endings: list[str]) -> Outcome:
    """The outcome from the child's record of the job; without one, how the child that claimed
    it ended (or the first child, when none claimed it)."""
    record_path = results / f"{index}.json"
    if not record_path.is_file():
        claim = results / f"{index}.claim"
        worker = int(claim.read_text() or 0) if claim.is_file() else 0
        return Outcome(job, CRASHED, endings[worker])
    record = json.loads(record_path.read_text())
    wall_s = float(record["wall_s"])
    result = record.get("result")
    if result is None:
        return Outcome(job, str(record["status"]), record["reason"], wall_s=wall_s)
    return Outcome(
        job,
        str(result["status"]),
        result.get("reason"),
        result.get("target"),
        [Problem.from_json(p) for p in result.get("problems", [])],
        result.get("device"),
        result.get("compile_s"),
        wall_s,
        result.get("comparison"),
        result.get("stopped"),
        stubbed=list(result.get("stubbed") or []),
        inputs=result.get("inputs"),
    )
