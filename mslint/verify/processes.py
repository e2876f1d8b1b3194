"""How the verifier's child processes end: never after ``mslint verify`` itself.

Every child leads a process group of its own (``start_new_session=True``), so ending its group
ends what it started too. The group is killed when the child is done, when it runs past its
timeout, and when ``mslint verify`` gets SIGINT or SIGTERM: then every wait stops, each child
gets SIGTERM (a compile batch kills its running compile, see :mod:`mslint.verify.batch`) and,
``GRACE_S`` later, its group gets SIGKILL; the temporary folders go as the waits unwind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Protocol, TypeVar

GRACE_S = 0.5
_SLICE_S = 0.05
_received: list[int] = []
"""The signal that interrupted the run, once one did: every wait, in any thread, stops."""


class Child(Protocol):
    """A child process as :func:`wait` waits for it: a :class:`subprocess.Popen`, or a batch a
    fork server forked (:class:`mslint.verify.forkserver.ForkedBatch`)."""

    pid: int

    def poll(self) -> int | None: ...

    def wait(self, timeout: float | None = None) -> int: ...


ChildT = TypeVar("ChildT", bound=Child)


class Interrupted(Exception):
    """``mslint verify`` got SIGINT or SIGTERM."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Within it, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread and stop every :func:`wait`."""
    _received.clear()
    if threading.current_thread() is not threading.main_thread():  # only the main thread may set handlers
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    for signum in previous:
        signal.signal(signum, _interrupt)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def raise_if_interrupted() -> None:
    """Raise :class:`Interrupted` once the run was interrupted (in any thread)."""
    if _received:
        raise Interrupted(_received[0])


def _interrupt(signum: int, frame: FrameType | None) -> None:
    if not _received:  # a second signal must not cut the clean-up of the first short
        _received.append(signum)
        raise Interrupted(signum)


def end_group(child: Child) -> None:
    """SIGTERM to the child's group, SIGKILL ``GRACE_S`` later or once the child is done (for
    what it left behind), and reap the child."""
    if child.poll() is None:
        signal_group(child.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=GRACE_S)
    signal_group(child.pid, signal.SIGKILL)
    child.wait()


def signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def wait(child: ChildT, timeout: float, end: Callable[[ChildT], None] = end_group) -> int | None:
    """The child's exit status, or None when it ran past ``timeout``. However the wait ends
    (done, timeout, :class:`Interrupted`), ``end`` (default :func:`end_group`) ends the child
    and what it started."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            raise_if_interrupted()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            with contextlib.suppress(subprocess.TimeoutExpired):
                return child.wait(timeout=min(_SLICE_S, remaining))
    finally:
        end(child)
