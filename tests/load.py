"""Wall-clock bounds that hold on a busy machine.

A test that asserts "it ended within 2 s" measures the machine as much as mslint: at a load of 16
on 2 cores, a process runs an eighth of the time, and an end that takes 0.3 s alone takes 2.4 s.
A bound here is what the step takes on an idle machine, stretched by the machine's load per core:
the work a test lets hang (a worker, a compile) is stretched as much, so the bound still tells an
end from a hang. The load is the kernel's average over the last minute, or the number of processes
runnable now where that is more: the average follows a sudden jump slowly (from 2 to 16, it reads
3.1 five seconds later, 10.9 a minute later), while the processes that jumped are runnable at once.
"""

from __future__ import annotations

import os
from pathlib import Path

from mslint.workers import available_cores

LOADAVG = Path("/proc/loadavg")
"""``1.02 0.87 0.66 7/157 32103``: the averages, then the runnable and all scheduling entities."""


def stretched(idle_s: float) -> float:
    """``idle_s``, a bound on an idle machine, on this machine as loaded now."""
    return idle_s * max(1.0, load() / available_cores())


def load() -> float:
    """The machine's load: its average over the last minute, or the processes runnable now where more."""
    return max(os.getloadavg()[0], runnable())


def runnable() -> int:
    """The processes runnable now, as the kernel counts them (0 where it does not say: not Linux)."""
    try:
        return int(LOADAVG.read_text().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return 0
