"""``mslint verify`` leaves no process and no temporary folder behind (after a compile, at
SIGINT and SIGTERM), says how a compile that ended without a result ended, and limits each
compile's memory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mslint.verify.runner import default_memory_limit_mib
from tests.load import stretched
from tests.test_verify import Run

pytestmark = [
    pytest.mark.mindspore,  # every test here runs mslint verify, which compiles with MindSpore
    pytest.mark.xdist_group("process-probes"),  # see tests/test_audit_processes.py
]

FACTORIES = """
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return x * 2


def record(*pids):
    with Path(__file__).with_name("pids.txt").open("a") as stream:
        stream.write(" ".join(map(str, pids)) + "\\n")


def sleeper():
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]).pid


def forks_a_sleeper():
    record(sleeper())
    return Net(), (ms.Tensor(np.ones(2), ms.float32),)


def hangs():
    record(os.getppid(), os.getpid(), sleeper())
    time.sleep(600)


def exits():
    os._exit(0)


def runaway():
    chunks = [b"x" * (64 << 20) for _ in range(24)]  # 1.5 GiB, then the timeout unless a limit ends it first
    time.sleep(600)
"""

RUN_SCRIPT = """
import os
import subprocess
import sys
import time
from pathlib import Path

sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"]).pid
Path(sys.argv[1]).write_text(f"{os.getpid()} {sleeper}\\n")
if sys.argv[2] == "hang":
    time.sleep(600)
"""


def running(pid: int) -> bool:
    """Whether the process exists and has not ended (a zombie has: only its exit status is left)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def still_running(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running a second (on an idle machine) after they should have ended:
    SIGKILL takes effect once the process is next scheduled, on a busy machine later (the bound
    follows the load while it waits)."""
    start = time.monotonic()
    while any(running(pid) for pid in pids) and time.monotonic() < start + stretched(1):
        time.sleep(0.02)
    return [pid for pid in pids if running(pid)]


def fork_servers_of(parent: int) -> list[int]:
    """The fork servers (:mod:`mslint.verify.forkserver`) ``parent`` started."""
    servers = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and b"mslint.verify.forkserver" in command:
            servers.append(int(entry.name))
    return servers


def recorded(pids_file: Path) -> list[int]:
    return [int(pid) for pid in pids_file.read_text().split()] if pids_file.is_file() else []


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The temporary folder of mslint (in this process and in those it starts); what the
    factories started is killed after the test, whatever it asserted."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    for pid in recorded(tmp_path / "pids.txt"):
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def test_compiles_leave_nothing_running_and_say_how_they_ended(
    write: Callable[[str, str], Path], run: Run, scratch: Path, tmp_path: Path
) -> None:
    path = write("factories.py", FACTORIES)
    examples = [arg for name in ("forks_a_sleeper", "exits", "runaway") for arg in ("--example", f"{path}:{name}")]
    arguments = ("--jobs", "1", "--timeout", "60", "--memory-limit", "1024", "--format", "json")
    code, out, _ = run("verify", str(path), *arguments, *examples)
    status = {(c["name"], c["level"]): (c["status"], c["reason"]) for c in json.loads(out)["compiles"]}
    for level in ("strict", "lax"):
        assert status[("forks_a_sleeper", level)][0] == "compiled"
        assert status[("exits", level)] == ("crashed", "compiler process exited with status 0 without a result")
        assert status[("runaway", level)] == ("crashed", "compiler process ran out of memory (limit 1024 MiB)")
    sleepers = recorded(tmp_path / "pids.txt")
    assert len(sleepers) == 4, (
        "one per compile of forks_a_sleeper, and one per instance LAX's comparison built (the modes agree: one in each)"
    )
    assert still_running(sleepers) == [], "what a Cell's constructor started ends with its compile"
    assert list(scratch.iterdir()) == []
    assert code == 0


def test_the_run_command_leaves_nothing_running(
    write: Callable[[str, str], Path], run: Run, scratch: Path, tmp_path: Path
) -> None:
    script = write("start.py", RUN_SCRIPT)
    code, _, _ = run("verify", str(script), "--run", f"{sys.executable} {script} {tmp_path / 'pids.txt'} exit")
    started = recorded(tmp_path / "pids.txt")
    assert len(started) == 2
    assert still_running(started) == [], "the command's background process ends with it"
    assert list(scratch.iterdir()) == []
    assert code == 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("work", ["compile", "run"])
def test_a_signal_ends_verify_and_all_it_started_at_once(
    signum: signal.Signals, work: str, write: Callable[[str, str], Path], scratch: Path, tmp_path: Path
) -> None:
    pids_file = tmp_path / "pids.txt"
    if work == "compile":
        path = write("factories.py", FACTORIES)
        arguments = [str(path), "--example", f"{path}:hangs", "--jobs", "1"]
        expected = 3  # the compile batch, its compile, and what the compile started
    else:
        path = write("start.py", RUN_SCRIPT)
        arguments = [str(path), "--run", f"{sys.executable} {path} {pids_file} hang"]
        expected = 2  # the command and what it started
    command = [sys.executable, "-m", "mslint", "verify", *arguments, "--timeout", "300"]
    verify = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(recorded(pids_file)) < expected and verify.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        started = recorded(pids_file)
        assert len(started) == expected, verify.stderr.read() if verify.poll() is not None else "nothing started"
        started += fork_servers_of(verify.pid)
        assert len(started) == expected + (work == "compile"), "the compile batch was forked from a fork server"
        verify.send_signal(signum)
        sent = time.monotonic()
        out, err = verify.communicate(timeout=30)
        seconds = time.monotonic() - sent
    finally:
        verify.kill()
        verify.wait()
    assert seconds < stretched(2), f"verify took {seconds:.2f} s to end"
    assert still_running(started) == []
    assert list(scratch.iterdir()) == [], "no mslint-verify-* or mslint-run-* folder is left"
    assert (verify.returncode, out, err) == (128 + signum, "", f"mslint: interrupted by {signum.name}\n")


def test_bad_limits_are_one_line_usage_errors(write: Callable[[str, str], Path], run: Run) -> None:
    path = write("net.py", "x = 1\n")
    for arguments in (
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "-1"),
        ("--memory-limit", "0"),
        ("--memory-limit", "-5"),
        ("--memory-limit", "1.5"),
        ("--memory-limit", "lots"),
    ):
        code, out, err = run("verify", str(path), *arguments)
        assert code == 2 and out == "" and err.startswith("mslint: error: ") and err.count("\n") == 1, arguments
        assert arguments[0] in err and "Traceback" not in err, arguments


def test_the_default_memory_limit_shares_three_quarters_of_the_memory_among_the_jobs() -> None:
    total_kib = int(Path("/proc/meminfo").read_text().split("MemTotal:")[1].split()[0])
    assert default_memory_limit_mib(1) == total_kib * 3 // 4 >> 10
    assert default_memory_limit_mib(4) == total_kib * 3 // 4 // 4 >> 10


@pytest.mark.mindspore
def test_each_compile_forks_from_a_frozen_heap_that_holds_the_probe(write: Callable[[str, str], Path]) -> None:
    """MindSpore calls gc.collect() at every Cell compile: in a fork, a heap the collector still
    tracks is walked (and copied page by page) each time. The probe and MindSpore are imported,
    and frozen, before the fork."""
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "factories.py",
        """
        import gc
        import json
        import sys
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def make():
            tracked = {id(obj) for obj in gc.get_objects()}
            inherited = {name: id(sys.modules[name]) in tracked for name in ("mindspore", "mslint.verify.probe")}
            Path(__file__).with_name("tracked.json").write_text(json.dumps(inherited))
            return nn.Dense(3, 2), (ms.Tensor(np.ones((2, 3), np.float32)),)
        """,
    )
    (outcome,) = run_jobs([Job(path, "make", "lax", factory=True)], 120, 1, None)
    assert outcome.status == COMPILED, outcome.reason
    tracked = json.loads(path.with_name("tracked.json").read_text())
    assert tracked == {"mindspore": False, "mslint.verify.probe": False}, "the collector walks them in every fork"


@pytest.mark.mindspore
def test_a_batch_that_drew_a_slow_compile_leaves_the_other_jobs_to_the_others(
    write: Callable[[str, str], Path],
) -> None:
    """The children take jobs from one list: dealt out in advance, the first child would get
    jobs 0 and 2, and job 2 would wait for the slow job 0."""
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "factories.py",
        """
        import os
        import time
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn


        FAST = ("fast_a", "fast_b", "fast_c")


        def made_by(name):
            Path(__file__).with_name(name + ".batch").write_text(str(os.getppid()))
            return nn.Dense(3, 2), (ms.Tensor(np.ones((2, 3), np.float32)),)


        def slow():
            # Until the other child has made the three others, however loaded the machine (a
            # sleep's length is a guess at its load): where one of them waits behind this job in
            # this child, this never returns and the job times out.
            while not all(Path(__file__).with_name(name + ".batch").exists() for name in FAST):
                time.sleep(0.05)
            return made_by("slow")


        def fast_a():
            return made_by("fast_a")


        def fast_b():
            return made_by("fast_b")


        def fast_c():
            return made_by("fast_c")
        """,
    )
    names = ("slow", "fast_a", "fast_b", "fast_c")
    outcomes = run_jobs([Job(path, name, "strict", factory=True) for name in names], 120, 2, None)
    assert [o.status for o in outcomes] == [COMPILED] * 4, [o.reason for o in outcomes]
    batch = {name: path.with_name(f"{name}.batch").read_text() for name in names}
    assert batch["fast_a"] == batch["fast_b"] == batch["fast_c"] != batch["slow"]


@pytest.mark.mindspore
def test_a_process_that_verifies_again_forks_its_batches_from_one_server(
    write: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """MindSpore is imported once per process and environment: the second run's batch is forked
    from the server the first started; a changed environment gets a server of its own, and the
    old one ends."""
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "factories.py",
        """
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def parent(pid):
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


        def make():
            batch = parent("self")  # the compile's parent is its batch, forked by a reaper forked by the server
            with Path(__file__).with_name("servers.txt").open("a") as stream:
                stream.write(f"{parent(parent(batch))}\\n")
            return nn.Dense(3, 2), (ms.Tensor(np.ones((2, 3), np.float32)),)
        """,
    )

    def server_of_a_run() -> int:
        (outcome,) = run_jobs([Job(path, "make", "strict", factory=True)], 120, 1, None)
        assert outcome.status == COMPILED, outcome.reason
        return int(path.with_name("servers.txt").read_text().split()[-1])

    first = server_of_a_run()
    assert b"mslint.verify.forkserver" in Path(f"/proc/{first}/cmdline").read_bytes()
    assert server_of_a_run() == first
    monkeypatch.setenv("MSLINT_TEST_ANOTHER_ENVIRONMENT", "1")
    assert server_of_a_run() != first
    assert still_running([first]) == []


@pytest.mark.mindspore
def test_a_process_that_verifies_in_another_folder_keeps_its_server(
    write: Callable[[str, str], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The working folder is not the server's: a run from another folder forks its batch from the
    same server, and the batch starts in that folder, with it first on ``sys.path``, as ``python -m``
    started there would (a test suite runs each test in a folder of its own)."""
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "factories.py",
        """
        import os
        import sys
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def parent(pid):
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


        def make():
            batch = parent("self")  # the compile's parent is its batch, forked by a reaper forked by the server
            with Path(__file__).with_name("servers.txt").open("a") as stream:
                stream.write(f"{parent(parent(batch))} {os.readlink(f'/proc/{batch}/cwd')} {' '.join(sys.path)}\\n")
            return nn.Dense(3, 2), (ms.Tensor(np.ones((2, 3), np.float32)),)
        """,
    )

    def run_in(folder: Path) -> tuple[str, str, list[str]]:
        """The server, the batch's working folder and its ``sys.path``, of a run from ``folder``."""
        folder.mkdir()
        monkeypatch.chdir(folder)
        (outcome,) = run_jobs([Job(path, "make", "strict", factory=True)], 120, 1, None)
        assert outcome.status == COMPILED, outcome.reason
        server, batch_folder, *batch_path = path.with_name("servers.txt").read_text().splitlines()[-1].split()
        return server, batch_folder, batch_path

    first, second = tmp_path / "first", tmp_path / "second"
    first_server, first_folder, first_path = run_in(first)
    second_server, second_folder, second_path = run_in(second)
    assert second_server == first_server
    assert (first_folder, second_folder) == (str(first), str(second))
    assert str(first) in first_path and str(second) not in first_path
    assert str(second) in second_path and str(first) not in second_path


@pytest.mark.mindspore
def test_where_no_fork_server_can_start_each_batch_imports_mindspore_itself(
    write: Callable[[str, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """macOS has no sequenced-packet Unix sockets: the batch then starts alone, as a process of its own."""
    import socket

    from mslint.verify import forkserver
    from mslint.verify.runner import Job, run_jobs
    from mslint.verify.statuses import COMPILED

    path = write(
        "factories.py",
        """
        import os
        from pathlib import Path

        import numpy as np
        import mindspore as ms
        from mindspore import nn


        def make():
            Path(__file__).with_name("batch.txt").write_text(Path(f"/proc/{os.getppid()}/cmdline").read_text())
            return nn.Dense(3, 2), (ms.Tensor(np.ones((2, 3), np.float32)),)
        """,
    )

    def refused(*arguments: object) -> None:
        raise OSError("Protocol not supported")

    forkserver.stop_server()
    monkeypatch.setattr(socket, "socketpair", refused)
    (outcome,) = run_jobs([Job(path, "make", "strict", factory=True)], 120, 1, None)
    assert outcome.status == COMPILED, outcome.reason
    assert path.with_name("batch.txt").read_text().split("\0")[1:3] == ["-m", "mslint.verify.batch"]


@pytest.mark.mindspore
@pytest.mark.parametrize("form", ["script", "-c"])
def test_a_table_child_is_forked_from_a_server_that_only_imported_mindspore(tmp_path: Path, form: str) -> None:
    """The table generators' children (scripts/mindspore_table.run_child) start as ``python SCRIPT``
    or ``python -c CODE`` would, in their folder and environment, without verify's dump settings,
    and with every frame of their stack readable but their own code's (MindSpore's trace capture
    reads each one's source),
    forked from a server of their own instead of importing MindSpore each."""
    from mslint.verify import forkserver
    from mslint.verify.processes import wait
    from mslint.workers import Lifeline

    code = textwrap.dedent(
        """
        import inspect, json, os, sys
        from pathlib import Path

        def parent(pid):
            return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])

        server = Path(f"/proc/{parent(parent(os.getpid()))}/cmdline").read_text().split("\\0")
        print(json.dumps({
            "name": __name__,
            "argv": sys.argv,
            "path0": sys.path[0],
            "folder": os.getcwd(),
            "environment": [os.environ.get("MSLINT_TEST_TABLE"), os.environ.get("MS_DEV_SAVE_GRAPHS")],
            "unreadable": [f.filename for f in inspect.stack() if f.code_context is None],
            "server": server[1].rsplit("/", 1)[-1],
        }))
        """
    )
    script = tmp_path / "child.py"
    script.write_text(code)
    arguments = [str(script), "an argument"] if form == "script" else ["-c", code, "an argument"]
    environment = {**os.environ, "MSLINT_TEST_TABLE": "1"}
    with Lifeline() as lifeline, (tmp_path / "out").open("wb") as out:
        child = forkserver.start_python(arguments, str(tmp_path), environment, (out, out), lifeline.read_end)
        assert wait(child, 300) == 0
    seen = json.loads((tmp_path / "out").read_text().splitlines()[-1])
    assert seen == {
        "name": "__main__",
        "argv": [str(script) if form == "script" else "-c", "an argument"],
        "path0": str(tmp_path) if form == "script" else "",
        "folder": str(tmp_path),
        "environment": ["1", None],
        "unreadable": [] if form == "script" else ["<string>"],  # as in a fresh python -c: its code only
        "server": "forkserver.py",
    }
