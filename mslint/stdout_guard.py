"""stdout as the ``mslint`` process writes it: a failure to write is :class:`OutputError`.

An stdout that cannot be written (a full disk, a closed descriptor) is not a bug of mslint: the
command ends with one line (see :mod:`mslint.console`), never with the ``OSError`` of a file the
command reads or writes.
"""

from __future__ import annotations

import io
import os
import sys

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


def guard_stdout() -> None:
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
