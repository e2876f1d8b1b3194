"""``mslint verify --run COMMAND``: run the user's own entry point and capture its graph compiles.

The command runs with the start-up hook of ``run_hook/`` on PYTHONPATH (it records each
compiled Cell or function and each compile error) and with MindSpore's fallback dump and
IR dumps switched on; what they show becomes problems located in the user's files.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from mslint.compiler_messages import message_line
from mslint.verify.compiler_output import (
    ERROR,
    STOPPED,
    Location,
    Problem,
    compile_time_problems,
    dynamic_shape_problems,
    error_locations,
    error_problems,
    fallback_problems,
    read_log,
    user_file_filter,
)
from mslint.verify.guard import guarded
from mslint.verify.processes import wait

HOOK_DIR = Path(__file__).resolve().parent / "run_hook"
_CHUNK = 65536
_DRAIN_S = 5.0


@dataclass
class RunCapture:
    command: str
    returncode: int | None
    """None when the command was killed at the timeout."""
    compiled: set[tuple[str, str]] = field(default_factory=set)
    """(path, name) of every Cell class and function the command compiled."""
    problems: list[Problem] = field(default_factory=list)
    stopped: dict[tuple[str, str], Problem] = field(default_factory=dict)
    """The first error that stopped a compile, by the (path, name) compiled."""
    ended: Problem | None = None
    """The exception that ended a command that failed, at the innermost line of the user's it ran."""


def not_user_code() -> list[str]:
    """Folders whose files are never the user's: MindSpore's and mslint's own sources."""
    roots = [str(Path(__file__).resolve().parent.parent)]
    spec = importlib.util.find_spec("mindspore")
    if spec is not None and spec.submodule_search_locations:
        roots.extend(spec.submodule_search_locations)
    return roots


def capture_run(command: str, timeout: float) -> RunCapture:
    """Run ``command`` through the shell in the working folder; its output (stdout and stderr)
    goes to our stderr as it comes."""
    with tempfile.TemporaryDirectory(prefix="mslint-run-") as scratch:
        record, log, graphs = Path(scratch, "compiles.jsonl"), Path(scratch, "stderr.log"), Path(scratch, "ir")
        python_path = os.pathsep.join(p for p in (str(HOOK_DIR), os.environ.get("PYTHONPATH", "")) if p)
        environment = {
            **os.environ,
            "PYTHONPATH": python_path,
            "MSLINT_VERIFY_RECORD": str(record),
            "MS_DEV_FALLBACK_DUMP_NODE": "1",
            "MS_DEV_SAVE_GRAPHS": "1",
            "MS_DEV_DUMP_IR_PASSES": "validate",
            "MS_DEV_SAVE_GRAPHS_PATH": str(graphs),
        }
        with log.open("wb") as log_stream:
            child = subprocess.Popen(
                command,
                shell=True,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=environment,
                start_new_session=True,
            )
            assert child.stdout is not None and child.stderr is not None
            copies = [
                threading.Thread(target=_pass_through, args=(child.stdout, None), daemon=True),
                threading.Thread(target=_pass_through, args=(child.stderr, log_stream), daemon=True),
            ]
            for copy in copies:
                copy.start()
            with guarded(child, Path(scratch)):
                returncode = wait(child, timeout)  # what the command left running is killed too
            for copy in copies:  # a process that left the group may hold the pipes: do not wait for it
                copy.join(_DRAIN_S)
        is_user_file = user_file_filter(not_user_code())
        capture = RunCapture(command, returncode)
        text = read_log(log)  # what the readers need of it: the command's stderr may take gigabytes
        if returncode not in (0, None):
            capture.ended = _ending_error(text, is_user_file)
        logged = _logged_locations(text, is_user_file)
        for line in record.read_text(encoding="utf-8", errors="replace").splitlines() if record.is_file() else []:
            parsed = _record(line)
            if parsed is not None:
                _read_record(parsed, capture, is_user_file, logged)
        ir_text = "\n".join(p.read_text(errors="replace") for p in graphs.rglob("*validate*.ir"))
    capture.problems += (
        fallback_problems(text, is_user_file)
        + compile_time_problems(text, is_user_file)
        + dynamic_shape_problems(ir_text, is_user_file)
    )
    return capture


def _pass_through(stream: IO[bytes], log: IO[bytes] | None) -> None:
    """Copy the command's output to our stderr as it comes (stdout stays for the report),
    and into ``log`` for the readers of the compiler's output."""
    for chunk in iter(lambda: os.read(stream.fileno(), _CHUNK), b""):
        if log is not None:
            log.write(chunk)
        try:
            os.write(sys.stderr.fileno(), chunk)
        except (AttributeError, ValueError, OSError):  # stderr replaced by an object without a file
            sys.stderr.write(chunk.decode(errors="replace"))


def _ending_error(log: str, is_user_file: Callable[[str], bool]) -> Problem | None:
    """The exception of the log's last traceback (a command that failed ends with it), at the
    innermost line of the user's that it names: where the command stopped."""
    _, start, last = log.rpartition(_TRACEBACK)
    if not start:
        return None
    located = [p for p in error_problems(start + last, is_user_file) if p.locations]
    return replace(located[-1], kind=STOPPED, locations=located[-1].locations[-1:]) if located else None


_TRACEBACK = "Traceback (most recent call last):"


def _logged_locations(log: str, is_user_file: Callable[[str], bool]) -> Callable[[str], tuple[Location, ...]]:
    """The ``In file`` lines the log printed for an error message; the log is read for errors only
    when a compile's exception had no lines of its own (a training log can be long)."""

    @functools.cache
    def by_message() -> dict[str, tuple[Location, ...]]:
        return {p.message: p.locations for p in error_problems(log, is_user_file) if p.locations}

    return lambda message: by_message().get(message, ())


def _record(line: str) -> dict[str, Any] | None:
    """A line of the hook's records; None for one the command's end cut short (killed at the
    timeout or by a signal while the hook wrote it)."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) else None


def _read_record(
    record: dict[str, Any],
    capture: RunCapture,
    is_user_file: Callable[[str], bool],
    logged: Callable[[str], tuple[Location, ...]],
) -> None:
    """A compile the hook recorded. An exception whose text has no ``In file`` lines takes those
    the C++ log printed for the same message (``logged``: the compiler locates a rejected
    ``with`` there), else the compiled Cell's or function's definition."""
    if "runtime" in record:
        capture.problems.append(Problem.from_json(record["runtime"]))
        return
    path, name, error = record.get("path"), record.get("name"), record.get("error")
    key = (str(Path(path).resolve()), name) if isinstance(path, str) and isinstance(name, str) else None
    if key is not None:
        capture.compiled.add(key)
    if isinstance(error, str):
        first_line = message_line(error)
        locations = error_locations(error, is_user_file) or logged(first_line.strip())
        if not locations and isinstance(path, str) and is_user_file(path):
            locations = ((str(Path(path).resolve()), int(str(record.get("line") or 1))),)
        problem = Problem(ERROR, first_line, locations, entry=name if isinstance(name, str) else "")
        capture.problems.append(problem)
        if key is not None:
            capture.stopped.setdefault(key, problem)
