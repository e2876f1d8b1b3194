"""mslint: find MindSpore code that will not survive static-graph compilation."""

import os
import signal
import sys

__version__ = "0.1.0"
EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Ctrl-C, as shells report a command it ended."""


def main() -> int:
    """The ``mslint`` command. Ctrl-C while it starts (its imports take a moment) or runs ends it
    with one line and exit code 130, as other command-line tools, not with a traceback."""
    try:
        from mslint.cli import main as run

        return run()
    except KeyboardInterrupt:
        print("mslint: interrupted by SIGINT", file=sys.stderr, flush=True)
        sys.stdout.flush()
        # Not a return: CPython ends the process by the signal instead of the exit code when
        # the interrupt landed in code that exec() ran (dataclasses build their methods so),
        # even though it was caught here.
        os._exit(EXIT_INTERRUPTED)
