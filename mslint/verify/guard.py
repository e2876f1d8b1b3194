"""The guard of a child of ``mslint verify`` that leads a session of its own (the ``--run``
command, msrun's ranks): a process that does nothing while verify lives, and when verify dies
without ending the child (SIGKILL, the OOM killer) kills the child's process tree and removes
its temporary folder.

Run as ``python -m mslint.verify.guard LIFELINE PID [FOLDER]``: it waits for the end of file on
the descriptor ``LIFELINE`` (see :class:`mslint.workers.Lifeline`), then sends SIGKILL to the
process group of ``PID`` and of each process below it (msrun's ranks lead groups of their own)
and removes ``FOLDER``. Verify kills the guard before it closes the lifeline, once it has
ended the child itself: a guard that sees the end of file was left behind.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mslint.workers import Lifeline


@contextlib.contextmanager
def guarded(child: subprocess.Popen[Any], folder: Path) -> Iterator[None]:
    """Within it, a guard ends ``child``'s tree and removes ``folder`` should verify die first."""
    with Lifeline() as lifeline:
        command = [sys.executable, "-m", "mslint.verify.guard", str(lifeline.read_end), str(child.pid), str(folder)]
        guard = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(lifeline.read_end,),
            start_new_session=True,  # a kill of verify's process group does not take it
        )
        try:
            yield
        finally:  # the child is ended: dismiss the guard before the lifeline closes
            guard.kill()
            guard.wait()


def _tree(pid: int) -> Iterator[int]:
    """``pid`` and the processes below it, parents first (where ``/proc`` says)."""
    yield pid
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            for child in children.read_text().split():
                yield from _tree(int(child))


def main(argv: list[str]) -> int:
    lifeline, pid, folder = int(argv[0]), int(argv[1]), Path(argv[2])
    while os.read(lifeline, 1):  # nobody writes: this returns at the end of file
        pass
    for member in list(_tree(pid)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(os.getpgid(member), signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(member, signal.SIGKILL)
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
