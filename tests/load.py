"""Wall-clock bounds that hold on a busy machine.

A test that asserts "it ended within 2 s" measures the machine as much as mslint: at a load of 16
on 2 cores, a process runs an eighth of the time, and an end that takes 0.3 s alone takes 2.4 s.
A bound here is what the step takes on an idle machine, stretched by the machine's load per core
(over the last minute, as the kernel counts it): the work a test lets hang (a worker, a compile)
is stretched as much, so the bound still tells an end from a hang.
"""

from __future__ import annotations

import os

from mslint.workers import available_cores


def stretched(idle_s: float) -> float:
    """``idle_s``, a bound on an idle machine, on this machine as loaded now."""
    return idle_s * max(1.0, os.getloadavg()[0] / available_cores())
