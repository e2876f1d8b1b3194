"""``mslint verify --ray ADDRESS``: compile on the nodes of a Ray cluster instead of here.

Each compile is a Ray task that asks for the target device as a resource (``NPU`` for Ascend,
``GPU`` for GPU, nothing more than a CPU for CPU) and runs on its node as a compile runs here:
:func:`mslint.verify.runner.run_jobs` with that one job, so a child process imports MindSpore
and forks the compile into a process group of its own, with the same timeout and memory limit.
The child follows a lifeline that the Ray worker holds: a worker that dies (killed, cancelled,
its job ended) takes its compile and its temporary folder with it. The outcomes come back as
the tasks end, to the handling a local run's outcomes get (the result cache, the gate).

A task whose worker is lost is run once more (``max_retries``); lost again, its compile is
reported as crashed, with the reason. The nodes must see the project at the path it has here
(a shared file system, or the same checkout at the same place) and run this mslint with
MindSpore: each task checks its entry's file, and a first task, before any compile, the
mslint (its verifier's content), the MindSpore version and the device.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from mslint.extras import install_command
from mslint.verify.cache import Runtime, verifier_digest
from mslint.verify.devices import VerifierUnavailable
from mslint.verify.processes import Interrupted
from mslint.verify.runner import Job, Outcome, default_memory_limit_mib, run_jobs
from mslint.verify.statuses import CRASHED, NOT_VERIFIABLE

RAY_RESOURCES = {"Ascend": "NPU", "GPU": "GPU"}
"""The resource a task asks Ray for, one of, per device; a CPU compile asks for a CPU only."""
NODE_DEFAULT_MEMORY = 0
"""``memory_limit_mib`` for the default limit of the node a compile runs on: three quarters of
its memory shared among the compiles Ray runs on it at once (its CPUs)."""
RETRIES = 1
"""How many more times a compile runs when its worker is lost."""
_POLL_S = 0.1
_CONNECT_S = 10.0
_LOST = ("WorkerCrashedError", "NodeDiedError", "LocalRayletDiedError", "ObjectLostError", "OwnerDiedError")
"""Ray's exceptions for a task whose process or node went away."""


@contextlib.contextmanager
def connect(address: str, device: str, timeout: float, memory_limit_mib: int | None) -> Iterator[Cluster]:
    """The cluster at ``address``, checked: it can run a compile for ``device`` and its nodes
    run this mslint; a one-line :class:`VerifierUnavailable` when not."""
    try:
        import ray
    except ImportError:
        raise VerifierUnavailable(f"--ray needs Ray, mslint's ray extra: {install_command('ray')}") from None
    refused = _refused((os.environ.get("RAY_ADDRESS") or address) if address == "auto" else address)
    if refused:
        raise VerifierUnavailable(f"cannot connect to the Ray cluster at {address}: {refused}")
    # Ray prints the cluster's errors (a worker that died) to stdout, which holds the report alone
    with contextlib.redirect_stdout(sys.stderr):
        try:
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
        except Exception as error:  # Ray raises ConnectionError, ValueError, RuntimeError... with several lines
            raise VerifierUnavailable(f"cannot connect to the Ray cluster at {address}: {_first_line(error)}") from None
        try:
            cluster = Cluster(ray, address, device, timeout, memory_limit_mib)
            cluster.check()
            yield cluster
        except SystemError as error:  # SIGINT's handler raised in Ray's compiled code, which wraps it
            if isinstance(error.__cause__, Interrupted):
                raise error.__cause__ from None
            raise
        finally:
            ray.shutdown()


class Cluster:
    def __init__(self, ray: ModuleType, address: str, device: str, timeout: float, memory_limit_mib: int | None):
        self._ray = ray
        self.address = address
        self.device = device
        self._timeout = timeout
        self._memory_limit_mib = memory_limit_mib
        self._runtime: Runtime | None = None

    def runtime(self) -> Runtime:
        """The MindSpore version and the device of the cluster's compiles (:meth:`check` asked)."""
        assert self._runtime is not None, "check() first"
        return self._runtime

    def check(self) -> None:
        """A node can take a compile, and one of them runs this mslint with MindSpore for the device."""
        wanted = self._resources()
        if not any(node.get("Alive") and _holds(node.get("Resources", {}), wanted) for node in self._ray.nodes()):
            asked = ", ".join(
                f"{amount / 2**20:g} MiB of memory" if name == "memory" else f"{amount:g} {name}"
                for name, amount in wanted.items()
            )
            raise VerifierUnavailable(f"no node of the Ray cluster at {self.address} has {asked} for a compile")
        task = self._ray.remote(_runtime_on_node).options(**self._options())
        try:
            found = self._ray.get(task.remote(), timeout=self._timeout + 60)
        except Exception as error:
            raise VerifierUnavailable(f"the Ray cluster at {self.address}: {_first_line(error)}") from None
        node = f"the Ray node {found['node']}"
        if "error" in found:
            raise VerifierUnavailable(f"mindspore cannot be imported on {node}: {found['error']}")
        if found["verifier"] != verifier_digest():
            raise VerifierUnavailable(f"{node} runs another mslint ({found['mslint']}): install this one on the nodes")
        if self.device not in found["available"]:
            mindspore = f"MindSpore {found['mindspore']}"
            raise VerifierUnavailable(f"device {self.device} is not available to {mindspore} on {node}")
        self._runtime = Runtime(str(found["mindspore"]), self.device)

    def compile(self, jobs: list[Job]) -> Generator[tuple[int, Outcome], None, None]:
        """Each job's index and outcome, as each task ends; the tasks left when it is closed
        (an interruption) are cancelled, their workers killed."""
        task = self._ray.remote(_compile_on_node).options(**self._options(), max_retries=RETRIES)
        settings = (self._timeout, self.device, self._memory_limit_mib)
        pending = {
            task.remote(replace(job, path=job.path.resolve()), self._node(job), *settings): i
            for i, job in enumerate(jobs)
        }
        guard = self._timeout * (RETRIES + 1) * len(jobs) + 120  # each compile has its timeout on its node
        deadline = time.monotonic() + guard
        try:
            while pending:
                done, _ = self._ray.wait(list(pending), num_returns=len(pending), timeout=_POLL_S)
                for ref in done:
                    index = pending.pop(ref)
                    yield index, self._outcome(jobs[index], ref)
                if time.monotonic() > deadline:
                    for index in sorted(pending.values()):
                        yield index, Outcome(jobs[index], CRASHED, f"no result from the Ray cluster within {guard:g} s")
                    return
        finally:
            for ref in pending:
                with contextlib.suppress(Exception):
                    self._ray.cancel(ref, force=True)

    def _node(self, job: Job) -> Node:
        return Node(_digest(job.path), verifier_digest(), self.runtime().mindspore)

    def _resources(self) -> dict[str, float]:
        """What a compile takes of a node: a CPU, the device, and with a memory limit that much
        memory (so that Ray never places more compiles on a node than its memory holds)."""
        wanted = {"CPU": 1.0}
        if self.device in RAY_RESOURCES:
            wanted[RAY_RESOURCES[self.device]] = 1.0
        if self._memory_limit_mib:
            wanted["memory"] = float(self._memory_limit_mib << 20)
        return wanted

    def _options(self) -> dict[str, Any]:
        """:meth:`_resources` as a task's options: Ray takes CPUs, GPUs and memory apart."""
        others = self._resources()
        cpus, gpus, memory = others.pop("CPU"), others.pop("GPU", 0.0), others.pop("memory", None)
        return {"num_cpus": cpus, "num_gpus": gpus, "memory": memory, "resources": others}

    def _outcome(self, job: Job, ref: Any) -> Outcome:
        try:
            outcome: Outcome = self._ray.get(ref)
        except self._ray.exceptions.RayError as error:
            return Outcome(job, CRASHED, _failure(error))
        return replace(outcome, job=job)


def _refused(address: str) -> str | None:
    """Why the head node at ``address`` (``HOST:PORT``) takes no connection, or None (also for an
    address of another form): Ray would try to connect for ever, deaf to SIGINT and SIGTERM."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or "://" in address:
        return None
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_S):
            return None
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__


def _holds(resources: dict[str, float], wanted: dict[str, float]) -> bool:
    return all(resources.get(name, 0.0) >= amount for name, amount in wanted.items())


def _failure(error: Exception) -> str:
    """Why a task gave no outcome, in one line."""
    name = type(error).__name__
    if name in _LOST:
        return f"the Ray worker was lost while compiling, {RETRIES + 1} times ({name}): not verifiable"
    if name == "OutOfMemoryError":
        return "Ray's memory monitor killed the worker (its node ran out of memory)"
    return f"the Ray task failed: {_first_line(error)}"


def _first_line(error: BaseException) -> str:
    """The first line of what ``error`` says; for an exception raised in a task, of that exception
    (Ray's own message starts with the task's name and pid)."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, BaseException):
        error = cause
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0][:300] if lines else type(error).__name__


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


@dataclass(frozen=True)
class Node:
    """What the node of a compile must have for the outcome to be this machine's: the entry's
    file as it is here, this mslint's verifier, and the MindSpore of the cluster's runtime."""

    file: str | None
    verifier: str
    mindspore: str

    def differs(self, path: Path) -> str | None:
        """Why this node is not such a node, or None."""
        node = f"the Ray node {socket.gethostname()}"
        if _digest(path) != self.file:
            return f"{path} on {node} is not the file checked here: give the nodes the project at this path"
        if verifier_digest() != self.verifier:
            return f"{node} runs another mslint: install this one on the nodes"
        try:
            mindspore = metadata.version("mindspore")
        except metadata.PackageNotFoundError:
            mindspore = "none"
        if mindspore != self.mindspore:
            return f"{node} has MindSpore {mindspore}, the cluster's first node {self.mindspore}: install one on all"
        return None


def _compile_on_node(job: Job, node: Node, timeout: float, device: str, memory_limit_mib: int | None) -> Outcome:
    """A Ray task: the compile, as :func:`mslint.verify.runner.run_jobs` runs it locally."""
    differs = node.differs(job.path)
    if differs is not None:
        return Outcome(job, NOT_VERIFIABLE, differs)
    if memory_limit_mib == NODE_DEFAULT_MEMORY:
        memory_limit_mib = default_memory_limit_mib(_node_cpus())
    return run_jobs([job], timeout, 1, device, memory_limit_mib)[0]


def _node_cpus() -> int:
    """The CPUs Ray gives the node this task runs on: as many compiles may run there at once."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    nodes = ray.nodes()  # type: ignore[no-untyped-call]  # (where Ray is installed: its nodes() is untyped)
    return max(1, int(next((n["Resources"].get("CPU", 1) for n in nodes if n["NodeID"] == node), 1)))


def _runtime_on_node() -> dict[str, Any]:
    """A Ray task: the node's mslint, and what :mod:`mslint.verify.devices` finds there (in a child)."""
    from mslint import __version__

    found: dict[str, Any] = {"node": socket.gethostname(), "mslint": __version__, "verifier": verifier_digest()}
    command = [sys.executable, "-m", "mslint.verify.devices"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    if result.returncode != 0 or not result.stdout.strip():
        return {**found, "error": (result.stderr.strip().splitlines() or ["no output"])[-1]}
    return {**found, **json.loads(result.stdout.strip().splitlines()[-1])}
