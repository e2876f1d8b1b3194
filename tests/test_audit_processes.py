"""Hangs, fork bombs and leftovers (issue 28, items 7 to 12): worker pools capped at the cores and
ended with their parent, files that are not regular files never read, deep inheritance chains
analysed in linear time, and ``verify``'s compiles ended with it. (What the language server
reads, items 9 and 10, is tested in test_language_server.py, which needs the lsp extra.)

The signal tests start mslint, note every process below it once its workers run, kill it, read
its output to the end as a CI step does, then count which of those processes still run (0) and
the files left (none)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mslint.engine import load_project
from mslint.incremental import check_incrementally
from mslint.model.project import ClassRef, Project
from mslint.settings import Settings
from mslint.workers import available_cores
from tests.load import stretched
from tests.test_verify_processes import FACTORIES, RUN_SCRIPT, recorded

# The probes here and in test_verify_processes.py kill or interrupt commands and give what they
# started a second or two to end: under pytest -n, one at a time in one worker, so that two
# probes' process trees never load the cores each other's deadlines are measured on.
pytestmark = pytest.mark.xdist_group("process-probes")

MSLINT = [sys.executable, "-m", "mslint"]
HANG_GUARD_S = 60
"""Long enough for any machine to run what these tests run; a run past it hangs."""
OUTPUT_GUARD_S = 20
"""How long a killed run's output may take to end before the test calls it a hang."""


Process = tuple[int, str]
"""A process's id and its start time: the id alone may be another process's once it ended."""


def process_table() -> dict[int, tuple[int, str, str]]:
    """Each process's parent, state (``Z`` for a zombie) and start time, from ``/proc``."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # ended meanwhile
                continue
            table[int(entry.name)] = (int(fields[1]), fields[0], fields[19])
    return table


def descendants(pid: int) -> set[Process]:
    """The processes ``pid`` started, and those they started, that are running (not zombies)."""
    table = process_table()
    found: set[int] = set()
    parents = {pid}
    while parents:
        children = {child for child, (parent, _, _) in table.items() if parent in parents} - found
        found |= children
        parents = children
    processes = {(child, table[child][2]) for child in found}
    return {process for process in processes if is_running(process, table)}


def is_running(process: Process, table: dict[int, tuple[int, str, str]]) -> bool:
    """Whether the process runs still: not a zombie, and its id not another process's since."""
    pid, start = process
    _, state, started = table.get(pid, (0, "Z", ""))
    return state != "Z" and started == start


def still_running(processes: set[Process], within_s: float = 2) -> set[Process]:
    """Those of ``processes`` still running ``within_s`` (on an idle machine) after they should have
    started to end: a child sees its parent's end once it is next scheduled, on a busy machine later
    (the bound follows the load while it waits)."""
    start = time.monotonic()
    while True:
        table = process_table()
        running = {process for process in processes if is_running(process, table)}
        if not running or time.monotonic() > start + stretched(within_s):
            return running
        time.sleep(0.05)


def files_under(folder: Path) -> set[Path]:
    return set(folder.rglob("*"))


@pytest.fixture
def killed_after() -> Iterator[set[Process]]:
    """Processes to SIGKILL after the test, whatever it asserted: a test that fails must not leave
    workers behind on the machine either."""
    processes: set[Process] = set()
    yield processes
    for pid, _ in still_running(processes, within_s=0):
        os.kill(pid, signal.SIGKILL)


def killed_while(
    command: list[str],
    ready: Callable[[set[Process]], bool],
    signum: int,
    killed_after: set[Process],
    cwd: Path,
    temporary: Path | None = None,
) -> tuple[set[Process], float]:
    """Run ``command`` (with ``temporary`` as its temporary folder), send it ``signum`` once the
    processes it started are ``ready``, and read its output to the end, as a CI step does: what
    it had started, and how many seconds the output took to end after the signal."""
    environment = {**os.environ, **({"TMPDIR": str(temporary)} if temporary else {})}
    process = subprocess.Popen(command, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    started: set[Process] = set()
    try:
        deadline = time.monotonic() + HANG_GUARD_S
        while not ready(started) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
            started = descendants(process.pid)
            killed_after.update(started)
        assert ready(started), f"it started {len(started)} processes, and exited {process.poll()}"
        started |= descendants(process.pid)  # with those that made it ready since the last look
        killed_after.update(started)
        process.send_signal(signum)
        sent = time.monotonic()
        process.communicate(timeout=OUTPUT_GUARD_S)  # ends when the last holder of its stdout and stderr has
        return started, time.monotonic() - sent
    finally:
        process.kill()
        process.wait()


def at_least(count: int) -> Callable[[set[Process]], bool]:
    return lambda started: len(started) >= count


def findings_of(completed: subprocess.CompletedProcess[str]) -> set[tuple[int, str, str]]:
    return {(d["line"], d["symbol"], d["message"]) for d in json.loads(completed.stdout)}


# Item 11: deep inheritance chains.


def class_chain(length: int) -> str:
    """A Cell, ``length - 1`` classes deriving from it one from the other, each with an
    attribute and a method, and a last Cell that uses the first class's attribute and the
    method of the class above it."""
    lines = [
        "import numpy as np",
        "from mindspore import nn",
        "",
        "class C0(nn.Cell):",
        "    def __init__(self):",
        "        super().__init__()",
        "        self.w0 = 1",
        "    def construct(self, x):",
        "        return np.sin(x)",
    ]
    for i in range(1, length):
        lines += [
            f"class C{i}(C{i - 1}):",
            "    def __init__(self):",
            "        super().__init__()",
            f"        self.w{i} = {i}",
            f"    def m{i}(self, x):",
            "        return x.asnumpy()",
        ]
    lines += [
        f"class Last(C{length - 1}):",
        "    def construct(self, x):",
        f"        return self.m{length - 1}(x) + self.w0",
    ]
    return "\n".join(lines) + "\n"


def test_a_chain_of_3000_classes_is_analysed_through_every_class(tmp_path: Path) -> None:
    """The facts of a class (its MRO, whether it is a Cell, its MindSpore bases, where a method
    is defined) are computed once from those of its bases, with no recursion: 3,000 classes
    took more than 120 s (or ran out of stack) and now take about a second."""
    length = 3000
    chain = tmp_path / "chain.py"
    chain.write_text(class_chain(length))
    completed = subprocess.run(
        [*MSLINT, "check", "--no-cache", "--format", "json", str(chain)],
        capture_output=True,
        text=True,
        timeout=HANG_GUARD_S,
    )
    assert completed.returncode == 1, completed.stderr
    method_line = 15 + 6 * (length - 2)  # the `return x.asnumpy()` of the last chain class
    assert {(line, symbol) for line, symbol, _ in findings_of(completed)} == {
        (9, "third-party-call-in-graph"),
        (method_line, "tensor-to-host-in-graph"),
    }
    assert all("reached from Last.construct" in m for line, _, m in findings_of(completed) if line == method_line)


def class_of(project: Project, name: str) -> ClassRef:
    module = next(m for m in project.modules if name in m.classes)
    return ClassRef(module, module.classes[name])


def test_the_mro_stays_breadth_first_and_cycles_end(tmp_path: Path) -> None:
    source = textwrap.dedent(
        """
        from mindspore import nn

        class A(nn.Cell):
            def construct(self, x):
                return x

        class B(A):
            pass

        class C(A):
            def construct(self, x):
                return x

        class D(B, C):
            pass

        class E(D):
            pass

        class Loop1(Loop2):
            pass

        class Loop2(Loop1):
            pass
        """
    )
    path = tmp_path / "classes.py"
    path.write_text(source)
    project = load_project([path], Settings(root=tmp_path)).project
    names = {name: [c.node.name for c in project.mro(class_of(project, name))] for name in ("E", "D", "Loop1")}
    assert names == {"E": ["E", "D", "B", "C", "A"], "D": ["D", "B", "C", "A"], "Loop1": ["Loop1", "Loop2"]}
    method = project.find_method(class_of(project, "E"), "construct")
    assert method is not None and method.owner is not None and method.owner.node.name == "C"
    assert project.find_method(class_of(project, "Loop2"), "construct") is None
    assert project.is_cell(class_of(project, "E")) and not project.is_cell(class_of(project, "Loop1"))


# Items 7 and 8: --jobs capped at the cores, and workers that end with mslint.


def slow_modules(folder: Path, count: int, classes: int = 1500, package: bool = False) -> None:
    """``count`` modules that take seconds to analyse: independent ones, or the modules of one
    package whose ``__init__`` imports them all (a single component)."""
    body = [
        "import numpy as np",
        "from mindspore import nn",
        "",
        *[
            line
            for c in range(classes)
            for line in (
                f"class Net{c}(nn.Cell):",
                "    def construct(self, x):",
                "        return np.tanh(x) + x.asnumpy()",
            )
        ],
    ]
    folder.mkdir(parents=True, exist_ok=True)
    for index in range(count):
        (folder / f"m{index}.py").write_text("\n".join(body) + "\n")
    if package:
        (folder / "__init__.py").write_text("".join(f"from . import m{index}\n" for index in range(count)))


@pytest.fixture
def two_cores() -> None:
    if available_cores() < 2:
        pytest.skip("--jobs runs one process per core at most: this process may run on one")


def test_jobs_start_no_more_processes_than_cores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--jobs 100000`` forked as many workers, all at once; now a run starts at most one per
    core it may use (and never more than it has components): counted at ``os.fork``."""
    slow_modules(tmp_path, 6, classes=2)
    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        forks.append(1)
        return real_fork()

    monkeypatch.setattr(os, "fork", counted_fork)
    paths = sorted(tmp_path.glob("m*.py"))
    serial = check_incrementally(paths, Settings(root=tmp_path), None, jobs=1).diagnostics
    assert forks == []
    parallel = check_incrementally(paths, Settings(root=tmp_path), None, jobs=64).diagnostics
    assert parallel == serial and len(serial) == 6 * 2 * 2
    assert 0 < len(forks) <= available_cores() + 1, "one process per core, and the whole run's speculative one"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
@pytest.mark.parametrize("layout", ["components", "one-package"])
def test_a_killed_check_leaves_no_worker_holding_its_output(
    tmp_path: Path, layout: str, signum: int, killed_after: set[Process], two_cores: None
) -> None:
    """Killed while its workers analyse independent files (``components``, a process pool) or
    while the forked speculative analysis of the whole run works (``one-package``): the output
    ends at once, nothing it started runs on and it wrote nothing."""
    slow_modules(tmp_path / "src", 12, package=layout == "one-package")  # seconds of work for either
    before = files_under(tmp_path)
    command = [*MSLINT, "check", "--no-cache", "--jobs", "2", "src"]
    workers = at_least(2 if layout == "components" else 1)
    started, seconds = killed_while(command, workers, signum, killed_after, tmp_path)
    assert still_running(started) == set()
    assert seconds < stretched(2), f"the output ended {seconds:.1f} s after the signal"
    assert files_under(tmp_path) == before


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_report_leaves_nothing_behind(tmp_path: Path, signum: int, killed_after: set[Process]) -> None:
    """``report`` makes one analysis, in its own process, for both levels: killed while it
    analyses, it leaves no process and no file."""
    slow_modules(tmp_path / "src", 4)
    before = files_under(tmp_path)
    command = [*MSLINT, "report", "src", "-o", "report.html"]
    signalled_after = time.monotonic() + stretched(1)  # the imports done, the analysis under way
    started, seconds = killed_while(
        command, lambda _: time.monotonic() > signalled_after, signum, killed_after, tmp_path
    )
    assert started == set(), "no second process"
    assert seconds < stretched(2), f"the output ended {seconds:.1f} s after the signal"
    assert files_under(tmp_path) == before


# Item 12: verify killed outright.


@pytest.mark.mindspore
@pytest.mark.parametrize("work", ["compile", "run"])
def test_a_killed_verify_takes_what_it_started_and_its_folder_with_it(
    tmp_path: Path, work: str, killed_after: set[Process]
) -> None:
    """SIGKILL gives ``verify`` no time to end what it started in sessions of their own as
    SIGTERM does: compile batches (with their compile, and what the compile started) follow
    its lifeline and end themselves; a ``--run`` command is ended by its guard."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    pids_file = tmp_path / "pids.txt"
    if work == "compile":
        script = tmp_path / "factories.py"
        script.write_text(FACTORIES)
        arguments = ["--example", f"{script}:hangs", "--jobs", "1"]
        expected = 3  # the compile batch, its compile, and the process the compile started
    else:
        script = tmp_path / "start.py"
        script.write_text(RUN_SCRIPT)
        arguments = ["--run", f"{sys.executable} {script} {pids_file} hang"]
        expected = 2  # the command and the process it started
    command = [*MSLINT, "verify", str(script), *arguments, "--timeout", "300"]
    started, _ = killed_while(
        command, lambda _: len(recorded(pids_file)) == expected, signal.SIGKILL, killed_after, tmp_path, temporary
    )
    assert set(recorded(pids_file)) <= {pid for pid, _ in started}
    assert still_running(started) == set()
    assert list(temporary.iterdir()) == [], "no mslint-verify-* or mslint-run-* folder is left"


# Item 9: a FIFO named *.py is never read (a read would block until something writes to it).


FIFO_USER = """
import numpy as np
from helper import Base


class Net(Base):
    def construct(self, x):
        return np.tanh(x)
"""
FIFO_HELPER = """
from mindspore import nn


class Base(nn.Cell):
    pass
"""


def check(*arguments: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [*MSLINT, "check", "--format", "json", *arguments]
    return subprocess.run(command, cwd=cwd, input=stdin, capture_output=True, text=True, timeout=HANG_GUARD_S)


def test_a_cached_run_does_not_read_a_fifo_that_replaced_a_file_it_depends_on(tmp_path: Path) -> None:
    """The cache keeps a digest of each file outside the run that the results depend on (here
    the base class's module) and reads it again to compare: a FIFO in its place is no file."""
    (tmp_path / "net.py").write_text(FIFO_USER)
    (tmp_path / "helper.py").write_text(FIFO_HELPER)
    first = check("net.py", cwd=tmp_path)
    assert {(line, symbol) for line, symbol, _ in findings_of(first)} == {(8, "third-party-call-in-graph")}
    (tmp_path / "helper.py").unlink()
    os.mkfifo(tmp_path / "helper.py")
    cached, uncached = check("net.py", cwd=tmp_path), check("--no-cache", "net.py", cwd=tmp_path)
    assert (cached.returncode, cached.stdout) == (uncached.returncode, uncached.stdout) == (0, "[]\n"), (
        "without its base class, Net is no Cell"
    )


def test_stdin_mode_skips_a_fifo_beside_the_file(tmp_path: Path) -> None:
    """``check -`` reads the files of ``--stdin-filename``'s folder as context."""
    (tmp_path / "helper.py").write_text(FIFO_HELPER)
    os.mkfifo(tmp_path / "pipe.py")
    completed = check("--stdin-filename", "net.py", "-", cwd=tmp_path, stdin=FIFO_USER)
    assert {(line, symbol) for line, symbol, _ in findings_of(completed)} == {(8, "third-party-call-in-graph")}
