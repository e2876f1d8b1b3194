"""The ``mslint`` process around its command line: Ctrl-C and an output nobody can read.

Neither is a bug of mslint. Ctrl-C ends the command with one line and exit code 130; an stdout
that cannot be written (a full disk, a closed descriptor) with one line and exit code 2; a pipe
whose reader left (``mslint check | head``) with exit code 2 and no line, as other tools end.
"""

from __future__ import annotations

import errno
import os
import signal
import sys
from typing import NoReturn

from mslint.stdout_guard import OutputError, guard_stdout

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Ctrl-C, as shells report a command it ended."""
EXIT_UNWRITABLE = 2


def main() -> int:
    """The ``mslint`` command (its console script and ``python -m mslint``)."""
    try:
        guard_stdout()
        from mslint.cli import main as run

        code = run()
        if not sys.stdout.closed:  # the language server closes it at its exit
            sys.stdout.flush()
        return code
    except KeyboardInterrupt:
        _end_interrupted()
    except RuntimeError as error:
        # Before Python 3.12, an exception in __set_name__ (a dataclass field made while the
        # interrupt lands, during the imports) comes out wrapped in a RuntimeError.
        if isinstance(error.__cause__, KeyboardInterrupt):
            _end_interrupted()
        raise
    except OutputError as failure:
        if failure.error.errno != errno.EPIPE:
            print(f"mslint: error: cannot write the output: {failure}", file=sys.stderr)
        return EXIT_UNWRITABLE


def _end_interrupted() -> NoReturn:
    print("mslint: interrupted by SIGINT", file=sys.stderr, flush=True)
    # Not a return: CPython ends the process by the signal instead of the exit code when the
    # interrupt landed in code that exec() ran (dataclasses build their methods so), even
    # though it was caught here.
    os._exit(EXIT_INTERRUPTED)
