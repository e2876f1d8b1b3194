"""The verifier's child: import MindSpore once, then compile each job in a fork of itself.

Run as ``python -m mslint.verify.batch JOBS.json RESULTS [--worker W] --timeout SECONDS
[--device D] [--memory-limit MiB] [--lifeline FD --scratch FOLDER]``. ``JOBS.json`` lists the
jobs (``target``, ``level``, ``inputs``, ``kwargs``, ``factory``, ``compare``); the record of
job ``i`` is written to ``RESULTS/i.json`` as soon as it ends. Several batches (workers ``W``) share the list: each
takes the next job no batch has claimed (``RESULTS/i.claim``), so that one that drew slow
compiles does not keep the others waiting.

Importing MindSpore takes about 1.8 s, a small compile a tenth of that. Each compile still
gets a process of its own, forked from this one before it ever compiled: the same fresh
compiler state a new process has, without the import. This process also imports the probe
(and the MindSpore modules it needs) before forking, and freezes its objects for the garbage
collector: MindSpore calls ``gc.collect()`` at every Cell compile, which in a fork would walk
the inherited heap, touching (and so copying) every page of it: 0.1 to 0.2 s a compile.

The fork leads a process group, which is killed when the compile ends, however it ends:
whatever the user's code started there (a constructor that forks a worker) goes with it. A
fork that crashes, hangs past the timeout, passes the memory limit or runs out of memory
becomes a record saying so. SIGTERM (what ``mslint verify`` sends when it is interrupted)
kills the running compile's group first. ``mslint verify`` killed outright (SIGKILL) sends
nothing: the batch and each compile follow its lifeline (``--lifeline``, see
:class:`mslint.workers.Lifeline`), and when it is cut the running compile's group is killed
and the run's temporary folder (``--scratch``) removed.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

from mslint.verify.divergence import COMPILED_BEFORE_COMPARING, NOT_COMPARABLE
from mslint.verify.statuses import CRASHED, TIMED_OUT, failure_reason
from mslint.workers import follow

_POLL_S = 0.02
_running: set[int] = set()
"""The compile running now (the leader of its process group), for a cut lifeline to kill."""
_lifeline_cut = threading.Event()
_UNWIND_S = 10.0
"""How long the main thread may take to unwind after the lifeline is cut."""


def compile_each(
    jobs: list[dict[str, Any]],
    results: Path,
    worker: int,
    timeout: float,
    memory_limit_mib: int | None,
    device: str | None,
    work: Path,
    lifeline: int | None = None,
) -> None:
    for index, job in enumerate(jobs):
        if not claim(results, index, worker):
            continue
        started = time.perf_counter()
        job_work = work / str(index)
        try:
            record = _run_forked(job, timeout, memory_limit_mib, device, job_work, lifeline)
        finally:  # a compile's dumps can be large: none are kept once read
            shutil.rmtree(job_work, ignore_errors=True)
        record["wall_s"] = round(time.perf_counter() - started, 3)
        (results / f"{index}.json").write_text(json.dumps(record))


def claim(results: Path, index: int, worker: int) -> bool:
    """Whether this batch takes job ``index``: the first batch to create ``RESULTS/index.claim``
    (which names the worker, for a job it leaves without a record) does."""
    try:
        descriptor = os.open(results / f"{index}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return False
    with os.fdopen(descriptor, "w") as stream:
        stream.write(str(worker))
    return True


def _run_forked(
    job: dict[str, Any],
    timeout: float,
    memory_limit_mib: int | None,
    device: str | None,
    work: Path,
    lifeline: int | None = None,
) -> dict[str, Any]:
    work.mkdir()
    log, result, error = work / "fork.log", work / "result.json", work / "error.txt"
    pid = os.fork()
    if pid == 0:
        _compile_in_fork(job, device, work, log, result, error, lifeline)
    _running.add(pid)
    with contextlib.suppress(OSError):  # as the fork does: the group must exist before it can be killed
        os.setpgid(pid, pid)
    try:
        status = _watch(pid, timeout, memory_limit_mib)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
        _running.discard(pid)
    if isinstance(status, dict):
        return _compiled_before(work, status) or status
    returncode = os.waitstatus_to_exitcode(status)
    if returncode == 0 and result.is_file():
        return {"result": json.loads(result.read_text())}
    failure = {"status": CRASHED, "reason": failure_reason(returncode, error.read_text() if error.is_file() else "")}
    return _compiled_before(work, failure) or failure


def _compiled_before(work: Path, failure: dict[str, Any]) -> dict[str, Any] | None:
    """The record of a compile that succeeded before the fork died comparing graph mode with
    PyNative (crashed, killed at the timeout or the memory limit): the comparison says why."""
    compiled = work / COMPILED_BEFORE_COMPARING
    if not compiled.is_file():
        return None
    result = json.loads(compiled.read_text())
    reason = f"the comparison stopped: {failure['reason']}"
    result["comparison"] = {"status": NOT_COMPARABLE, "reason": reason, "seconds": None}
    return {"result": result}


def _watch(pid: int, timeout: float, memory_limit_mib: int | None) -> int | dict[str, Any]:
    """The fork's wait status once it ends, or the record of why it must be killed now."""
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if time.monotonic() > deadline:
            return {"status": TIMED_OUT, "reason": f"no result within the {timeout:g} s timeout (compile killed)"}
        if memory_limit_mib is not None and _resident_mib(pid) > memory_limit_mib:
            return {"status": CRASHED, "reason": f"compiler process ran out of memory (limit {memory_limit_mib} MiB)"}
        time.sleep(_POLL_S)


def _resident_mib(pid: int) -> int:
    """The fork's resident memory, 0 where /proc does not say.

    The limit is on resident memory, watched from here, and not an rlimit set in the fork: the
    fork inherits MindSpore's mappings, and compiling a two-layer Cell on a 2-core machine maps
    2.2 GB of address space (RLIMIT_AS below 2 GiB fails with MindSpore's own "Memory not
    enough") and 1.3 GB of data (each of MindSpore's threads reserves a malloc arena, so both
    grow with the cores) while 225 MB is resident."""
    try:
        resident_pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0
    return resident_pages * os.sysconf("SC_PAGE_SIZE") >> 20


def _compile_in_fork(
    job: dict[str, Any], device: str | None, work: Path, log: Path, result: Path, error: Path, lifeline: int | None
) -> None:
    """The forked process: its own process group, its output in ``log``, MindSpore's dumps under
    ``work``, the exception that stopped it in ``error``. Never returns. It follows the lifeline
    itself: the batch may be cut off before it knows this process."""
    code = 1
    try:
        os.setpgid(0, 0)
        if lifeline is not None:
            follow(lifeline, _kill_own_group)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with log.open("wb") as stream:
            os.dup2(stream.fileno(), 1)
            os.dup2(stream.fileno(), 2)
        os.environ["MS_DEV_SAVE_GRAPHS_PATH"] = str(work)
        os.chdir(work)  # MindSpore writes rank_0/ dumps of failed compiles into the working folder
        from mslint.verify.probe import probe

        result.write_text(json.dumps(probe(job, str(job["level"]), device, str(work))))
        code = 0
    except BaseException as exception:  # the parent reports it; without it, the fork ended without a word
        error.write_text(f"{type(exception).__name__}: {exception}")
    finally:
        os._exit(code)


def _kill_own_group() -> None:
    os.killpg(0, signal.SIGKILL)


def _cut_off() -> None:
    """The lifeline is cut, ``mslint verify`` is gone: kill the running compile and what it
    started, and end this process as SIGTERM does (the main thread unwinds and removes the
    run's temporary folder); should the main thread not get to it, the lifeline ends it."""
    _lifeline_cut.set()
    for pid in list(_running):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(_UNWIND_S)


class _Terminated(BaseException):
    """SIGTERM (from ``mslint verify``, or from a cut lifeline): unwinds through ``_run_forked``,
    which kills the running compile."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.batch")
    parser.add_argument("jobs", type=Path)
    parser.add_argument("results", type=Path)
    parser.add_argument("--worker", type=int, default=0)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--device")
    parser.add_argument("--memory-limit", type=int)
    parser.add_argument("--lifeline", type=int, help="end when this descriptor reads end of file")
    parser.add_argument("--scratch", type=Path, help="remove this folder then")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, _terminate)
    try:
        if args.lifeline is not None:  # first: importing MindSpore takes seconds
            follow(args.lifeline, _cut_off)
        _compile_all(args)
    except _Terminated:  # the compile is dead: skip MindSpore's clean-up at exit, which takes most of a second
        if _lifeline_cut.is_set() and args.scratch is not None:
            shutil.rmtree(args.scratch, ignore_errors=True)
        os._exit(128 + signal.SIGTERM)
    return 0


def prepare() -> None:
    """What every fork shares: MindSpore's dump settings, MindSpore and the probe imported, the
    heap frozen. Here, or once for many batches in :mod:`mslint.verify.forkserver`."""
    os.environ.update(MS_DEV_SAVE_GRAPHS="1", MS_DEV_DUMP_IR_PASSES="validate", MS_DEV_FALLBACK_DUMP_NODE="1")
    import mindspore  # noqa: F401  (once, for every fork)

    import mslint.verify.probe  # noqa: F401  (and MindSpore's modules it imports: once, not in every fork)

    gc.freeze()  # MindSpore's every compile calls gc.collect(): in a fork it must not walk (and copy) this heap


def _compile_all(args: argparse.Namespace) -> None:
    work = args.results / f"work{args.worker}"
    work.mkdir()
    os.environ["MS_DEV_SAVE_GRAPHS_PATH"] = str(work)
    prepare()
    jobs = json.loads(args.jobs.read_text())
    compile_each(jobs, args.results, args.worker, args.timeout, args.memory_limit, args.device, work, args.lifeline)


if __name__ == "__main__":
    sys.exit(main())
