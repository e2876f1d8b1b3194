"""How a compile job ends: its status, the stage at which the user's code stopped it, and the
words for a compile process that died. The runner, the batch that forks the compiles and the
probe inside each compile all speak of outcomes in these terms."""

from __future__ import annotations

import signal

COMPILED, NOT_VERIFIABLE, CRASHED, TIMED_OUT = "compiled", "not-verifiable", "crashed", "timed-out"
BUILD_FAILED = "build-failed"
"""A job whose entry raised while being built (a Cell's ``__init__``, an example factory that
builds one): it ran, and the error is the evidence, but nothing was compiled."""
RAN = (COMPILED, BUILD_FAILED)
"""The statuses of a job that ran to a result: its problems are the evidence."""
BUILD_STAGE, COMPILE_STAGE, KERNEL_STAGE = "build", "compile", "kernel"
"""Where a job that ran stopped at an error of the user's code: building the Cell, compiling it, or
the compiled graph's first run, for an operator the device has no kernel for."""


def failure_reason(returncode: int, last_words: str) -> str:
    """One line on how a compile process died; ``last_words`` is what it said about it, if anything."""
    if returncode < 0:
        name = signal.Signals(-returncode).name
        if -returncode == signal.SIGKILL:
            return f"compiler process was killed ({name}), most likely for running out of memory"
        return f"compiler process crashed ({name})"
    last = next((line.strip() for line in reversed(last_words.splitlines()) if line.strip()), "")
    if "MemoryError" in last:
        return "compiler process ran out of memory (MemoryError)"
    if not last:  # os._exit() in the user's code, for one
        return f"compiler process exited with status {returncode} without a result"
    return f"compiler process exited with status {returncode}: {last[:300]}"
