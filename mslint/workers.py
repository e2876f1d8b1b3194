"""mslint's worker processes: never more than the cores, and never alive after mslint.

A worker left running when mslint is killed (SIGTERM, SIGKILL, the OOM killer) keeps the
caller's stdout and stderr open: a CI step that reads the output to its end waits for it, and
a ``--jobs 100000`` that forks as many workers exhausts the machine. So the pools here have
at most one worker per core this process may run on, and every child follows a
:class:`Lifeline`: it exits as soon as mslint is gone, however mslint ended.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a run that starts no process imports neither concurrent.futures nor logging
    from concurrent.futures import Executor


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


PARALLEL_FROM_BYTES = 250_000
"""``check``'s default runs in parallel where that takes at least this much source off the
longest process's share: below it, starting processes costs about what they save (measured:
docs/performance.md#parallel-by-default)."""


def automatic_jobs(sizes: Sequence[int]) -> int:
    """``check --jobs``'s default for independent groups of files holding ``sizes`` bytes of
    source: the idle cores where spreading the groups over them gains, else 1.

    A group is analysed by one process, so the largest bounds what processes save; cores that
    other processes keep busy (the load average) are not idle: on a loaded machine a second
    process competes with the first and the run is slower than a serial one."""
    cores = idle_cores()
    total = sum(sizes)
    longest_share = max(max(sizes, default=0), total / cores)
    return cores if cores > 1 and total - longest_share >= PARALLEL_FROM_BYTES else 1


def idle_cores() -> int:
    """The cores this process may run on, less those the last minute's load keeps busy; at least 1."""
    cores = available_cores()
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average on this system (Windows): take every core
        return cores
    return max(1, min(cores, round(cores - load)))


def _stay() -> None:
    """What a child does by default when its lifeline is cut, before it exits: nothing."""


class Lifeline:
    """A pipe whose write end only the parent holds: the kernel closes it when the parent
    exits, whatever killed it, and each child reads the other end in a thread, which sees the
    end of the file then and ends the child.

    Forked children call :meth:`follow`; a program started with ``pass_fds=[lifeline.read_end]``
    calls :func:`follow` with that descriptor."""

    def __init__(self) -> None:
        self.read_end, self._write_end = os.pipe()  # neither is inherited by a program started

    def follow(self, on_cut: Callable[[], None] = _stay) -> None:
        """In a forked child: let go of the parent's end and exit once the parent has."""
        os.close(self._write_end)
        follow(self.read_end, on_cut)

    def close(self) -> None:
        """In the parent, once its children are done."""
        os.close(self._write_end)
        os.close(self.read_end)

    def __enter__(self) -> Lifeline:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()


def follow(read_end: int, on_cut: Callable[[], None] = _stay) -> None:
    """Exit this process, after ``on_cut``, when the lifeline ``read_end`` is cut."""
    threading.Thread(target=_watch, args=(read_end, on_cut), name="mslint-lifeline", daemon=True).start()


def _watch(read_end: int, on_cut: Callable[[], None]) -> None:
    try:
        cut = os.read(read_end, 1) == b""  # nobody writes: this returns when the parent's end closes
    except OSError:  # the descriptor was closed here (code the child runs may close them all)
        return
    if cut:
        try:
            on_cut()
        finally:
            os._exit(1)


@contextlib.contextmanager
def process_pool(workers: int) -> Iterator[Executor]:
    """A pool of ``workers`` processes, at most one per core, that end with this process."""
    import multiprocessing  # only runs that start processes pay for importing these
    from concurrent.futures import ProcessPoolExecutor

    forks = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if forks else "spawn")
    with Lifeline() if forks else contextlib.nullcontext() as lifeline:  # a spawned process inherits no descriptor
        initializer = functools.partial(_start_worker, lifeline)
        workers = max(1, min(workers, available_cores()))
        with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer) as pool:
            yield pool


def _start_worker(lifeline: Lifeline | None) -> None:
    """A pool worker's start: it ends with mslint, and Ctrl-C, which reaches the whole process
    group, ends it at once and without a word (SIGINT's default action), not with a traceback of
    where it waited: the command says it was interrupted."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if lifeline is not None:
        lifeline.follow()
