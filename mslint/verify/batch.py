"""The verifier's child: import MindSpore once, then compile each job in a fork of itself.

Run as ``python -m mslint.verify.batch JOBS.json RESULTS --timeout SECONDS [--device D]``.
``JOBS.json`` lists the jobs (``target``, ``level``, ``inputs``, ``kwargs``, ``factory``);
the record of job ``i`` is written to ``RESULTS/i.json`` as soon as it ends.

Importing MindSpore takes about 1.8 s, a small compile a tenth of that. Each compile still
gets a process of its own, forked from this one before it ever compiled: the same fresh
compiler state a new process has, without the import. A fork that crashes, hangs past the
timeout (its process group is killed) or runs out of memory becomes a record saying so.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import sys
import time
from pathlib import Path
from typing import Any

from mslint.verify.runner import CRASHED, TIMED_OUT, failure_reason

_POLL_S = 0.02


def compile_each(jobs: list[dict[str, Any]], results: Path, timeout: float, device: str | None, work: Path) -> None:
    for index, job in enumerate(jobs):
        started = time.perf_counter()
        job_work = work / str(index)
        try:
            record = _run_forked(job, timeout, device, job_work)
        finally:  # a compile's dumps can be large: none are kept once read
            shutil.rmtree(job_work, ignore_errors=True)
        record["wall_s"] = round(time.perf_counter() - started, 3)
        (results / f"{index}.json").write_text(json.dumps(record))


def _run_forked(job: dict[str, Any], timeout: float, device: str | None, work: Path) -> dict[str, Any]:
    work.mkdir()
    log, result = work / "fork.log", work / "result.json"
    pid = os.fork()
    if pid == 0:
        _compile_in_fork(job, device, work, log, result)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return {"status": TIMED_OUT, "reason": f"no result within the {timeout:g} s timeout (compile killed)"}
        time.sleep(_POLL_S)
    returncode = os.waitstatus_to_exitcode(status)
    if returncode == 0 and result.is_file():
        record: dict[str, Any] = {"result": json.loads(result.read_text())}
    else:
        record = {"status": CRASHED, "reason": failure_reason(returncode, log.read_text(errors="replace"))}
    return record


def _compile_in_fork(job: dict[str, Any], device: str | None, work: Path, log: Path, result: Path) -> None:
    """The forked process: its own process group (compile workers die with it), its output in
    ``log``, MindSpore's dumps under ``work``. Never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        with log.open("wb") as stream:
            os.dup2(stream.fileno(), 1)
            os.dup2(stream.fileno(), 2)
        os.environ["MS_DEV_SAVE_GRAPHS_PATH"] = str(work)
        os.chdir(work)  # MindSpore writes rank_0/ dumps of failed compiles into the working folder
        from mslint.verify.probe import probe

        result.write_text(json.dumps(probe(job, str(job["level"]), device, str(work))))
        code = 0
    except BaseException as error:  # the parent reads the last line of the log
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
    finally:
        os._exit(code)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.batch")
    parser.add_argument("jobs", type=Path)
    parser.add_argument("results", type=Path)
    parser.add_argument("--timeout", type=float, required=True)
    parser.add_argument("--device")
    args = parser.parse_args(argv)
    work = args.results / "work"
    work.mkdir()
    os.environ.update(
        MS_DEV_SAVE_GRAPHS="1",
        MS_DEV_DUMP_IR_PASSES="validate",
        MS_DEV_SAVE_GRAPHS_PATH=str(work),
        MS_DEV_FALLBACK_DUMP_NODE="1",
    )
    import mindspore  # noqa: F401  (once, for every fork)

    compile_each(json.loads(args.jobs.read_text()), args.results, args.timeout, args.device, work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
