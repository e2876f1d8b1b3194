"""The ``mslint`` process around its command line: Ctrl-C and an output nobody can read.

Neither is a bug of mslint. Ctrl-C ends the command with one line and exit code 130; an stdout
that cannot be written (a full disk, a closed descriptor) with one line and exit code 2; a pipe
whose reader left (``mslint check | head``) with exit code 2 and no line, as other tools end.
"""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from typing import NoReturn

EXIT_INTERRUPTED = 128 + signal.SIGINT
"""Ctrl-C, as shells report a command it ended."""
EXIT_UNWRITABLE = 2
_STDOUT = 1


class OutputError(Exception):
    """Writing to stdout failed: ``error`` says why."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.error = error


class _Output(io.RawIOBase):
    """stdout's file descriptor, whose failures are :class:`OutputError`, not the ``OSError`` of
    any file the command reads or writes. After the first, what is left is dropped: the exit's
    flush must not fail again."""

    def __init__(self) -> None:
        super().__init__()
        self._failed = False

    def writable(self) -> bool:
        return True

    def write(self, data: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if self._failed:
            return len(data)
        try:
            return os.write(_STDOUT, data)
        except OSError as error:
            self._failed = True
            raise OutputError(error) from None


def main() -> int:
    """The ``mslint`` command (its console script and ``python -m mslint``)."""
    try:
        _guard_stdout()
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


def end_on_ctrl_c() -> None:
    """Of a worker process (a pool's initializer): Ctrl-C, which reaches the whole process group,
    ends it at once and without a word, SIGINT's default action, not with a traceback of where it
    waited; the command says it was interrupted."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _guard_stdout() -> None:
    """Send stdout through :class:`_Output`, with the encoding and buffering it had. A closed
    descriptor 1 is held on /dev/null for reading: a file the command opens must not take it."""
    try:
        os.fstat(_STDOUT)
    except OSError:
        os.dup2(os.open(os.devnull, os.O_RDONLY), _STDOUT)
    current = sys.stdout
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(_Output()),
        encoding=current.encoding if current else "utf-8",
        errors=current.errors if current else "strict",
        line_buffering=bool(current and current.line_buffering),
    )
