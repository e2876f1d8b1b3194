"""The verifier's fork server: MindSpore imported once per process of ``mslint``, each compile batch forked from it.

A compile batch (:mod:`mslint.verify.batch`) spends most of its start importing MindSpore:
1.5 CPU-s, where a small compile takes a tenth of that. A process that verifies more than once
(an editor's, a notebook's, a test suite's) or with several workers paid that import for every
batch. So the first batch of a process starts this server, which imports what a batch imports
and then forks each batch the process asks for: a batch starts as a fresh one would, with the
same environment, folder and arguments, without the import.

The server is reused only by a process whose environment and working folder are those the
server started with (MindSpore reads its settings from the environment as it is imported);
otherwise a new one replaces it. Each batch is a fork of a fork: the first (the reaper) tells
``mslint`` the batch's process id and, once it ends, its exit status, through a socket of its
own. The server follows a lifeline of its own (it ends with the process that started it), and
each batch follows its run's lifeline, as a batch started alone does. Where the server cannot
start or dies, batches are started alone.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import IO, Any

from mslint.verify.processes import raise_if_interrupted
from mslint.workers import Lifeline, follow

_SLICE_S = 0.05
_STOP_S = 5.0
_MESSAGE_BYTES = 1 << 20
_PER_TEST = ("PYTEST_CURRENT_TEST",)
"""Set anew before every test by pytest, to name it; nothing a compile reads."""


class ForkedBatch:
    """A batch the server forked, as :func:`mslint.verify.processes.wait` waits for a child:
    ``pid``, :meth:`poll` and :meth:`wait` with the exit status the reaper reports."""

    def __init__(self, pid: int, reply: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._reply = reply

    def poll(self) -> int | None:
        self._read(0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.returncode is None:
            remaining = _SLICE_S if deadline is None else deadline - time.monotonic()
            if remaining <= 0:
                raise subprocess.TimeoutExpired(f"batch {self.pid}", timeout or 0)
            self._read(min(_SLICE_S, remaining))
        return self.returncode

    def _read(self, timeout: float) -> None:
        if self.returncode is not None or not select.select([self._reply], [], [], timeout)[0]:
            return
        message = self._reply.recv(64)
        # no message: the reaper was killed, and with it the only word on the batch (killed with it, or lost)
        self.returncode = int(message) if message else -signal.SIGKILL
        self._reply.close()


class ForkServer:
    """The server of one environment and working folder, started at once."""

    def __init__(self, key: tuple[str, dict[str, str]]) -> None:
        self.key = key
        self._lifeline = Lifeline()
        self._socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._lock = threading.Lock()
        command = [sys.executable, "-m", "mslint.verify.forkserver"]
        command += ["--lifeline", str(self._lifeline.read_end), "--socket", str(theirs.fileno())]
        with theirs:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=(self._lifeline.read_end, theirs.fileno()),
            )

    def alive(self) -> bool:
        return self._process.poll() is None

    def start(self, arguments: list[str], log: IO[bytes], lifeline: int) -> ForkedBatch | None:
        """``python -m mslint.verify.batch ARGUMENTS`` forked, its output in ``log``, following
        ``lifeline``; None where the server is gone before it forked it."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        request = json.dumps({"arguments": arguments, "environment": dict(os.environ)}).encode()
        try:
            with theirs, self._lock:
                socket.send_fds(self._socket, [request], [theirs.fileno(), log.fileno(), lifeline])
            while not select.select([ours], [], [], _SLICE_S)[0]:  # the server may still be importing MindSpore
                raise_if_interrupted()
            pid = ours.recv(64)
        except OSError:  # the server is gone
            pid = b""
        except BaseException:
            ours.close()
            raise
        if not pid:
            ours.close()
            return None
        return ForkedBatch(int(pid), ours)

    def stop(self) -> None:
        """End the server (its lifeline cut) and wait for it; its batches follow their runs' lifelines."""
        self._socket.close()
        self._lifeline.close()
        try:
            self._process.wait(timeout=_STOP_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()


_server: ForkServer | None = None
_server_lock = threading.Lock()


def start_batch(arguments: list[str], log: IO[bytes], lifeline: int) -> ForkedBatch | None:
    """The batch forked from this process's server, started for this environment where needed;
    None where no server could fork it (the caller starts it alone)."""
    global _server
    key = (os.getcwd(), {name: value for name, value in os.environ.items() if name not in _PER_TEST})
    with _server_lock:
        if _server is not None and (_server.key != key or not _server.alive()):
            _server.stop()
            _server = None
        if _server is None:
            _server = ForkServer(key)
        server = _server
    return server.start(arguments, log, lifeline)


@atexit.register
def stop_server() -> None:
    global _server
    with _server_lock:
        if _server is not None:
            _server.stop()
            _server = None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.forkserver")
    parser.add_argument("--lifeline", type=int, required=True, help="end when this descriptor reads end of file")
    parser.add_argument("--socket", type=int, required=True, help="the requests come on this socket")
    args = parser.parse_args(argv)
    follow(args.lifeline)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the reapers are reaped by the kernel
    from mslint.verify.batch import prepare

    prepare()
    requests = socket.socket(fileno=args.socket)
    while True:
        try:
            message, descriptors, _, _ = socket.recv_fds(requests, _MESSAGE_BYTES, 3)
        except OSError:
            break
        if not message:  # mslint closed its end: it is done
            break
        if os.fork() == 0:
            requests.close()
            _reap(json.loads(message), *descriptors)
        for descriptor in descriptors:
            os.close(descriptor)
    os._exit(0)  # MindSpore's clean-up at exit takes most of a second, and nothing here needs it


def _reap(request: dict[str, Any], reply: int, log: int, lifeline: int) -> None:
    """The reaper: fork the batch, say its process id, then its exit status. Never returns."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the batch waits for its compiles
    pid = os.fork()
    if pid == 0:
        os.close(reply)
        _batch(request, log, lifeline)
    os.close(log)
    os.close(lifeline)
    try:
        os.write(reply, str(pid).encode())
        status = os.waitpid(pid, 0)[1]
        os.write(reply, str(os.waitstatus_to_exitcode(status)).encode())
    except OSError:  # mslint is gone or gave up on it: so does the batch
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    os._exit(0)


def _batch(request: dict[str, Any], log: int, lifeline: int) -> None:
    """The batch, as ``python -m mslint.verify.batch`` started by mslint would be. Never returns."""
    code = 1
    try:
        os.setsid()
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.close(log)
        os.environ.clear()
        os.environ.update(request["environment"])
        from mslint.verify.batch import main as batch

        code = batch([*request["arguments"], "--lifeline", str(lifeline)])
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    except BaseException as exception:  # as Python would: a traceback-less last word in the log
        print(f"{type(exception).__name__}: {exception}", file=sys.stderr)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
