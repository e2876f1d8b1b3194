"""Evidence MindSpore gives while the user's code runs, outside any compile.

Some hazards never reach the compiler that mslint runs: a dataset ``map`` given network
operators, mixed precision set twice, a gradient a script calls (compiled outside any entry), a
Cell called with arguments its ``construct`` cannot take.
MindSpore's own checks notice them while the user's module builds its pipeline or its model.
Each watcher wraps the MindSpore API that runs such a check and reports what the check found
as a :class:`Problem` located on the user's line that made the call. The probe child installs
the watchers before it imports the user's module.
"""

from __future__ import annotations

from mslint.verify.runtime import cell_arguments, data_pipeline, gradients, jit_arguments, mixed_precision
from mslint.verify.runtime.callers import IsUserFile, Report


def watch(report: Report, is_user_file: IsUserFile) -> None:
    """Install every watcher; MindSpore must be importable."""
    watchers = (cell_arguments, data_pipeline, gradients, jit_arguments, mixed_precision)
    for install in (watcher.install for watcher in watchers):
        try:
            install(report, is_user_file)
        except (ImportError, AttributeError):  # another MindSpore release without that API: no such evidence
            continue
