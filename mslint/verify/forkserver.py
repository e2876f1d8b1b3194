"""The verifier's fork server: MindSpore imported once per process of ``mslint``, its children forked from it.

A compile batch (:mod:`mslint.verify.batch`) spends most of its start importing MindSpore:
1.5 CPU-s, where a small compile takes a tenth of that. A process that verifies more than once
(an editor's, a notebook's, a test suite's) or with several workers paid that import for every
batch, and so did the device probe (:mod:`mslint.verify.devices`) before them. So the first of
these children a process starts starts this server, which imports what a batch imports and then
forks each child the process asks for: a child starts as a fresh ``python -m MODULE`` would,
with the same environment, folder and arguments, without the import.

The server is reused only by a process whose environment is the one the server started with
(MindSpore reads its settings from the environment as it is imported); otherwise a new one
replaces it. The working folder is not part of that: importing MindSpore neither reads nor
writes it, so the server starts in mslint's own folder (nothing a user's folder holds stands in
for what it imports), and each child moves to the folder it was asked for, with that folder
first on its ``sys.path`` as ``python -m`` puts it. A process that verifies in several folders
(a test suite, each test in a folder of its own) imports MindSpore once.

Verify's server readies itself as a batch does
(:func:`mslint.verify.batch.prepare`: MindSpore's dump settings, the probe); a second kind,
for :func:`start_python` (the table generators' measuring children), only imports MindSpore,
so that a child measures what a fresh ``python`` would, without verify's dumps.

Each child is a fork of a fork: the first (the reaper) tells
``mslint`` the child's process id and, once it ends, its exit status, through a socket of its
own. The server follows a lifeline of its own (it ends with the process that started it), and
each child follows the lifeline it is given (``--lifeline``), as one started alone does. Where
the server cannot start or dies, the children are started alone.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
import types
from pathlib import Path
from typing import IO, Any

from mslint.verify.processes import Child, raise_if_interrupted
from mslint.workers import Lifeline, follow

_SLICE_S = 0.05
_STOP_S = 5.0
_MESSAGE_BYTES = 1 << 20
Output = tuple[IO[bytes], IO[bytes]]
"""Where a child's standard output and standard error go (the same file twice for one log)."""
_PER_TEST = ("PYTEST_CURRENT_TEST",)
"""Set anew before every test by pytest, to name it; nothing a compile reads."""
VERIFY, PLAIN = "verify", "plain"
"""How a server readies itself: as verify's batches need, or with MindSpore imported only."""
Key = tuple[str, dict[str, str]]
"""What a server serves: how it readied itself and its environment."""
_HOME = str(Path(__file__).resolve().parents[2])
"""The server's working folder: the one that holds the mslint package, which ``python -m``
puts first on the server's ``sys.path`` (so no user's folder shadows what the server imports)."""


class Forked:
    """A child the server forked, as :func:`mslint.verify.processes.wait` waits for one:
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
                raise subprocess.TimeoutExpired(f"forked child {self.pid}", timeout or 0)
            self._read(min(_SLICE_S, remaining))
        return self.returncode

    def _read(self, timeout: float) -> None:
        if self.returncode is not None or not select.select([self._reply], [], [], timeout)[0]:
            return
        message = self._reply.recv(64)
        # no message: the reaper was killed, and with it the only word on the child (killed with it, or lost)
        self.returncode = int(message) if message else -signal.SIGKILL
        self._reply.close()


class ForkServer:
    """The server of one environment, started at once."""

    def __init__(self, key: Key) -> None:
        self.key = key
        prepared, environment = key
        self._lifeline = Lifeline()
        self._socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._lock = threading.Lock()
        # A plain server runs as a script, so that its children's stacks hold no frames of frozen
        # runpy (as ``python -m`` puts there): a fresh ``python SCRIPT`` has none, and MindSpore's
        # trace capture reads the source of every frame on the stack (a TypeError where it has none).
        command = [sys.executable, *((__file__,) if prepared == PLAIN else ("-m", "mslint.verify.forkserver"))]
        command += ["--lifeline", str(self._lifeline.read_end), "--socket", str(theirs.fileno())]
        command += ["--prepare", prepared]
        with theirs:
            self._process = subprocess.Popen(
                command,
                cwd=_HOME,
                env=environment,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                pass_fds=(self._lifeline.read_end, theirs.fileno()),
            )

    def alive(self) -> bool:
        return self._process.poll() is None

    def start(self, request: dict[str, Any], output: Output, lifeline: int) -> Forked | None:
        """The child ``request`` describes (:func:`_child`: what to run, in which environment)
        forked, its standard output and error in ``output``; None where the server is gone before
        it forked it."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        message = json.dumps(request).encode()
        descriptors = [theirs.fileno(), output[0].fileno(), output[1].fileno(), lifeline]
        try:
            with theirs, self._lock:
                socket.send_fds(self._socket, [message], descriptors)
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
        return Forked(int(pid), ours)

    def stop(self) -> None:
        """End the server (its lifeline cut) and wait for it; its children follow their own lifelines."""
        self._socket.close()
        self._lifeline.close()
        try:
            self._process.wait(timeout=_STOP_S)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
            self._process.wait()


_servers: dict[str, ForkServer] = {}
"""The server of each kind (:data:`VERIFY`, :data:`PLAIN`), for this process's present environment."""
_server_lock = threading.Lock()


def start(module: str, arguments: list[str], output: Output, lifeline: int) -> Child:
    """``python -m MODULE ARGUMENTS --lifeline LIFELINE``, leading a session of its own: forked
    from this process's server, started for this environment where needed, or, where no server
    can fork it, started alone (it then imports MindSpore itself). ``output`` takes its standard
    output and error."""
    request = {"module": module, "arguments": arguments, "environment": dict(os.environ), "folder": os.getcwd()}
    forked = _forked(VERIFY, request, output, lifeline)
    if forked is not None:
        return forked
    return subprocess.Popen(
        [sys.executable, "-m", module, *arguments, "--lifeline", str(lifeline)],
        stdin=subprocess.DEVNULL,
        stdout=output[0],
        stderr=output[1],
        start_new_session=True,
        pass_fds=(lifeline,),
    )


def start_python(
    arguments: list[str], folder: str, environment: dict[str, str], output: Output, lifeline: int
) -> Child:
    """``python ARGUMENTS`` (a script and its arguments, or ``-c CODE ...``) in ``folder`` with
    ``environment``, leading a session of its own and following ``lifeline``: forked from a server
    that has only imported MindSpore, or, where none can fork it, started alone."""
    forked = _forked(PLAIN, {"python": arguments, "environment": environment, "folder": folder}, output, lifeline)
    if forked is not None:
        return forked
    return subprocess.Popen(
        [sys.executable, *arguments],
        cwd=folder,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=output[0],
        stderr=output[1],
        start_new_session=True,
    )


def _forked(prepared: str, request: dict[str, Any], output: Output, lifeline: int) -> Forked | None:
    """The child ``request`` describes, forked by the server ``prepared`` of the request's
    environment; None where no server can fork it."""
    environment = {name: value for name, value in request["environment"].items() if name not in _PER_TEST}
    key = (prepared, environment)
    with _server_lock:
        server = _servers.get(prepared)
        if server is not None and (server.key != key or not server.alive()):
            server.stop()
            del _servers[prepared]
        if prepared not in _servers:
            try:
                _servers[prepared] = ForkServer(key)
            except OSError:  # no sequenced-packet Unix sockets here (macOS), or no process to spare
                return None
        server = _servers[prepared]
    return server.start(request, output, lifeline)


@atexit.register
def stop_server() -> None:
    with _server_lock:
        while _servers:
            _servers.popitem()[1].stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.verify.forkserver")
    parser.add_argument("--lifeline", type=int, required=True, help="end when this descriptor reads end of file")
    parser.add_argument("--socket", type=int, required=True, help="the requests come on this socket")
    parser.add_argument("--prepare", choices=(VERIFY, PLAIN), default=VERIFY, help="what to import before forking")
    args = parser.parse_args(argv)
    follow(args.lifeline)
    if args.prepare == VERIFY:
        from mslint.verify.batch import prepare

        prepare()
    else:
        if os.path.realpath(sys.path[0]) == os.path.dirname(os.path.realpath(__file__)):  # run as a script: its
            del sys.path[0]  # folder's modules must not stand in for others of the same name (cache, ...)
        import mindspore  # noqa: F401  (once, for every child)

        gc.freeze()  # as verify's server does: a child's garbage collections must not copy this heap
    requests = socket.socket(fileno=args.socket)
    while True:
        _wait_for_reapers(os.WNOHANG)
        if not select.select([requests], [], [], _SLICE_S * 10)[0]:
            continue
        try:
            message, descriptors, _, _ = socket.recv_fds(requests, _MESSAGE_BYTES, 4)
        except OSError:
            break
        if not message:  # mslint closed its end: it is done
            break
        if os.fork() == 0:
            requests.close()
            _reap(json.loads(message), *descriptors)
        for descriptor in descriptors:
            os.close(descriptor)
    _wait_for_reapers(0)
    os._exit(0)  # MindSpore's clean-up at exit takes most of a second, and nothing here needs it


def _wait_for_reapers(options: int) -> None:
    """Reap the reapers that ended (``os.WNOHANG``), or all of them (0). Waited for, and not left to
    the kernel, so that their time, and their children's, counts in this process's and then in
    mslint's (``time mslint verify`` says what the compiles cost)."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, options)[0]:
            pass


def _reap(request: dict[str, Any], reply: int, stdout: int, stderr: int, lifeline: int) -> None:
    """The reaper: fork the child, say its process id, then its exit status. Never returns."""
    pid = os.fork()
    if pid == 0:
        os.close(reply)
        _child(request, stdout, stderr, lifeline)
    for descriptor in (stdout, stderr, lifeline):
        os.close(descriptor)
    try:
        os.write(reply, str(pid).encode())
        status = os.waitpid(pid, 0)[1]
        os.write(reply, str(os.waitstatus_to_exitcode(status)).encode())
    except OSError:  # mslint is gone or gave up on it: so does the child
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    os._exit(0)


def _child(request: dict[str, Any], stdout: int, stderr: int, lifeline: int) -> None:
    """The child, as ``python -m MODULE`` started by mslint would be, or, for a ``python`` request,
    as ``python SCRIPT ...`` or ``python -c CODE ...``. Never returns."""
    code = 1
    try:
        os.setsid()
        os.dup2(stdout, 1)
        os.dup2(stderr, 2)
        os.close(stdout)
        os.close(stderr)
        os.environ.clear()
        os.environ.update(request["environment"])
        os.chdir(request["folder"])
        if "python" in request:
            follow(lifeline)  # a script takes no --lifeline: the child follows it itself
            _run_python(request["python"])
            code = 0
        else:
            module = request["module"]
            sys.path[0] = request["folder"]  # as python -m puts its working folder first
            sys.argv = [module, *request["arguments"], "--lifeline", str(lifeline)]
            code = importlib.import_module(module).main()
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else 1
    except BaseException as exception:  # as Python would: a traceback-less last word in the log
        print(f"{type(exception).__name__}: {exception}", file=sys.stderr)
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _run_python(arguments: list[str]) -> None:
    """Run ``python ARGUMENTS`` here as the interpreter would: ``-c CODE ...`` or ``SCRIPT ...``,
    as the module ``__main__`` (what MindSpore reads a function's module from), with its
    ``sys.argv`` and ``sys.path[0]``."""
    main = types.ModuleType("__main__")
    if arguments[0] == "-c":
        source, filename, sys.argv, sys.path[0] = arguments[1], "<string>", ["-c", *arguments[2:]], ""
    else:
        filename, sys.argv = arguments[0], list(arguments)
        source, sys.path[0] = Path(filename).read_text(), str(Path(filename).resolve().parent)
        main.__file__ = filename
    sys.modules["__main__"] = main
    exec(compile(source, filename, "exec"), main.__dict__)


if __name__ == "__main__":
    sys.exit(main())
