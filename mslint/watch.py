"""``check --watch``: check again whenever a checked file or the configuration changes, as
``ruff check --watch`` does. It polls modification times (no dependency, any OS); each round
reads the configuration again and finds new files, and the cache keeps a round on unchanged
files cheap."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from mslint.discovery import UsageError
from mslint.settings import ConfigError

CLEAR_SCREEN = "\x1b[2J\x1b[H"
INTERRUPTED = 130
"""128 + SIGINT: Ctrl-C ends the watch."""


def watch(
    check: Callable[[], int],
    watched: Callable[[], Iterable[Path]],
    clear: bool,
    interval: float = 0.5,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Run ``check``, then again each time a file of ``watched()`` changes, until Ctrl-C."""
    sleep = sleep or time.sleep
    try:
        while True:
            if clear:
                sys.stdout.write(CLEAR_SCREEN)
            before = _current(watched)  # before the check: a change during it makes another round
            try:
                check()
            except (UsageError, ConfigError) as error:  # a configuration mid-edit: wait for the next one
                print(f"mslint: error: {error}", file=sys.stderr)
            sys.stdout.flush()  # into a file or a pipe, a round is there when it ends, not when the watch does
            print("mslint: watching for file changes (Ctrl-C to stop)", file=sys.stderr, flush=True)
            while _current(watched) == before:
                sleep(interval)
    except KeyboardInterrupt:
        return INTERRUPTED


def _current(watched: Callable[[], Iterable[Path]]) -> dict[Path, int | None] | None:
    """The state of the watched files; None while the configuration is unusable."""
    try:
        return _state(watched())
    except (UsageError, ConfigError):
        return None


def _state(paths: Iterable[Path]) -> dict[Path, int | None]:
    """Each path's modification time (None: gone or unreadable)."""
    state: dict[Path, int | None] = {}
    for path in paths:
        try:
            state[path] = path.stat().st_mtime_ns
        except OSError:
            state[path] = None
    return state
