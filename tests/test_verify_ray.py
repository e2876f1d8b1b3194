"""``mslint verify --ray``: the compiles of a local Ray cluster, started as docs/verify.md says,
give the result of a local run, feed the same result cache and gate, and a worker killed in the
middle of a compile is run again once, then reported, with nothing left running."""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from mslint.verify.cache import verifier_digest
from mslint.verify.cluster import NODE_DEFAULT_MEMORY, Cluster, Node
from mslint.verify.command import VerifierUnavailable
from tests.examples import REPO
from tests.extras import extra_requirements, quoted_requirements
from tests.load import stretched

Run = Callable[..., tuple[int, str, str]]
MSLINT = [sys.executable, "-m", "mslint"]
DOC, SCALE = REPO / "docs" / "verify.md", REPO / "docs" / "scale.md"
EXAMPLES = REPO / "rules" / "forbidden-api-in-graph"  # 4 Cells, each an error at both levels
requires_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (mslint[ray])")

SLOW = """
import os
import time
from pathlib import Path

import numpy as np
from mindspore import nn

MARKS = Path(MARKS_FOLDER)


class Slow(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        level = os.environ["MS_DEV_JIT_SYNTAX_LEVEL"]  # set by mslint's probe: 0 for STRICT, 2 for LAX
        (MARKS / f"{level}-{os.getpid()}").write_text("")  # this compile's process
        while not (MARKS / f"go-{level}").exists():
            time.sleep(0.05)

    def construct(self, x):
        return np.exp(x)
"""


def documented_steps() -> list[str]:
    """The commands of the page's bash block under "A Ray cluster"."""
    section = DOC.read_text().split("### A Ray cluster", 1)[1]
    return section.split("```bash\n", 1)[1].split("```", 1)[0].splitlines()


def _free_port() -> int:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        return int(listener.getsockname()[1])


def _group(pgid: int) -> list[int]:
    """The live processes of a process group."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields and fields[2] != "Z" and int(fields[4]) == pgid:
                members.append(int(entry.name))
    return members


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields (the command's name, which may hold spaces, as one); None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    return [head.split(" (", 1)[0], head.split(" (", 1)[1], *rest.split()]


def _alive(pid: int) -> bool:
    found = _stat(pid)
    return found is not None and found[2] != "Z"


def _parent(pid: int) -> int:
    found = _stat(pid)
    assert found is not None, f"process {pid} is gone"
    return int(found[3])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A Ray cluster of 2 CPUs on this machine, started by the page's `ray start` (with ports and
    a temporary folder of its own, beside any other); ended by its process group, never `ray
    stop`, which ends every Ray on the machine."""
    start = documented_steps()[0].split()
    assert start[:3] == ["ray", "start", "--head"], start
    port = _free_port()
    folder = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))  # Ray's sockets need a short path
    isolated = ["--num-cpus", "2", "--port", str(port), "--temp-dir", str(folder), "--disable-usage-stats"]
    isolated += ["--include-dashboard", "false", "--dashboard-port", str(_free_port())]
    isolated += ["--dashboard-agent-listen-port", str(_free_port())]
    command = [str(Path(sys.executable).with_name("ray")), *start[1:], *isolated]
    starting = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    said, _ = starting.communicate(timeout=120)  # its processes stay in its group once it has returned
    try:
        assert starting.returncode == 0, said
        yield f"127.0.0.1:{port}"
    finally:  # nothing of a test's cluster is worth a graceful stop
        with contextlib.suppress(ProcessLookupError):
            os.killpg(starting.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while _group(starting.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def _args(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    """What two runs of the same compiles share: all but the times and whether a compile was cached."""
    compiles = [{k: v for k, v in c.items() if k not in ("wall_s", "compile_s", "cached")} for c in result["compiles"]]
    for compile_ in compiles:
        if compile_["comparison"]:
            compile_["comparison"] = {k: v for k, v in compile_["comparison"].items() if k != "seconds"}
    return {"findings": result["findings"], "compiler_only": result["compiler_only"], "compiles": compiles}


def _verify(*arguments: str, cwd: Path, environment: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    done = subprocess.run(
        [*MSLINT, "verify", *arguments, "--format", "json"],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=600,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout), done.stderr


def test_without_ray_the_option_names_the_extra(
    write: Callable[[str, str], Path], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code, out, err = run("verify", str(write("net.py", "x = 1\n")), "--ray", "auto")
    assert (code, out) == (2, "")
    assert err.startswith("mslint: error: --ray needs Ray, mslint's ray extra: pip install ") and err.count("\n") == 1
    assert quoted_requirements(err) == extra_requirements("ray"), "installs what the ray extra adds"


def test_a_node_without_the_checked_file_another_mslint_or_mindspore_does_not_compile(tmp_path: Path) -> None:
    path = tmp_path / "net.py"
    path.write_text("x = 1\n")
    try:
        mindspore = metadata.version("mindspore")
    except metadata.PackageNotFoundError:
        mindspore = "none"
    here = Node(hashlib.sha256(b"x = 1\n").hexdigest(), verifier_digest(), mindspore)
    assert here.differs(path) is None
    assert "runs another mslint" in str(replace(here, verifier="0" * 64).differs(path))
    assert f"has MindSpore {mindspore}, the cluster's first node 1.0.0" in str(
        replace(here, mindspore="1.0.0").differs(path)
    )
    path.write_text("x = 2\n")
    assert f"{path} on the Ray node " in str(here.differs(path)) and "not the file checked here" in str(
        here.differs(path)
    )


@pytest.mark.parametrize(
    ("device", "memory_limit", "options"),
    [
        ("CPU", NODE_DEFAULT_MEMORY, {"num_cpus": 1.0, "num_gpus": 0.0, "memory": None, "resources": {}}),
        ("GPU", None, {"num_cpus": 1.0, "num_gpus": 1.0, "memory": None, "resources": {}}),
        ("Ascend", 1024, {"num_cpus": 1.0, "num_gpus": 0.0, "memory": 1024.0 * 2**20, "resources": {"NPU": 1.0}}),
    ],
)
def test_a_compile_asks_ray_for_a_cpu_its_device_and_its_memory_limit(
    device: str, memory_limit: int | None, options: dict[str, Any]
) -> None:
    assert Cluster(SimpleNamespace(), "head:6379", device, 300.0, memory_limit)._options() == options


def test_a_cluster_without_a_node_for_the_compile_is_an_error_not_a_wait() -> None:
    cpu_node = {"Alive": True, "Resources": {"CPU": 8.0, "memory": 2.0**34}}
    gpu_node_gone = {"Alive": False, "Resources": {"CPU": 8.0, "GPU": 1.0, "memory": 2.0**34}}
    ray = SimpleNamespace(nodes=lambda: [cpu_node, gpu_node_gone])
    with pytest.raises(
        VerifierUnavailable, match=r"^no node of the Ray cluster at head:6379 has 1 CPU, 1 GPU for a compile$"
    ):
        Cluster(ray, "head:6379", "GPU", 300.0, None).check()
    with pytest.raises(VerifierUnavailable, match=r"has 1 CPU, 32768 MiB of memory for a compile$"):
        Cluster(ray, "head:6379", "CPU", 300.0, 2**15).check()


def test_the_scale_page_shows_the_documented_steps() -> None:
    block = "```bash\n" + "\n".join(documented_steps()) + "\n```"
    assert block in SCALE.read_text()


@requires_ray
@pytest.mark.mindspore
def test_the_documented_steps_give_the_local_result_and_share_its_cache_and_gate(cluster: str, tmp_path: Path) -> None:
    steps = documented_steps()
    assert steps[1].startswith("mslint verify models/ ") and " --ray auto " in steps[1], steps[1]
    assert steps[2:] == ["ray stop"]  # it ends every Ray of the machine: the fixture ends its own cluster instead
    (tmp_path / "models").mkdir()
    shutil.copy(EXAMPLES / "bad.py", tmp_path / "models")
    status = tmp_path / "status.csv"
    _, local, _ = _verify("models/", "--all", "--no-cache", "--expect", str(status), "--update-expect", cwd=tmp_path)
    assert len(local["compiles"]) == 8 and {f["verdict"] for f in local["findings"]} == {"confirmed"}

    # `auto` is the cluster of RAY_ADDRESS, else the machine's last one: this test's
    documented = steps[1].replace("mslint", f"{sys.executable} -m mslint", 1)
    environment = {**os.environ, "RAY_ADDRESS": cluster}
    subprocess.run(["bash", "-c", documented], cwd=tmp_path, env=environment, timeout=600, check=False)
    on_ray = json.loads((tmp_path / "all.json").read_text())
    assert _comparable(on_ray) == _comparable(local)
    assert not any(c["cached"] for c in on_ray["compiles"])

    _, cached, _ = _verify("models/", "--all", cwd=tmp_path)
    assert all(c["cached"] for c in cached["compiles"]), "what Ray compiled is in the cache a local run reads"
    assert _comparable(cached) == _comparable(local)

    rows = status.read_text().splitlines()
    worse = [rows[0], *(row.replace("fails", "compiles", 1) if ":ReadsContext," in row else row for row in rows[1:])]
    status.write_text("\n".join(worse) + "\n")
    code, _, err = _verify(
        "models/", "--all", "--ray", "auto", "--expect", str(status), cwd=tmp_path, environment=environment
    )
    regressions = [line for line in err.splitlines() if "regression" in line]
    assert (code, len(regressions)) == (1, 1) and ":ReadsContext: STRICT fails, expected compiles" in regressions[0], (
        err
    )


def _processes(mark: str) -> list[int]:
    """The compile that left ``mark``, its compile batch, the batch's reaper, the fork server they
    were forked from (:mod:`mslint.verify.forkserver`), and its Ray worker."""
    compile_ = int(mark.split("-")[1])
    batch = _parent(compile_)
    reaper = _parent(batch)
    server = _parent(reaper)
    worker = _parent(server)
    assert _args(server).split()[1:3] == ["-m", "mslint.verify.forkserver"], _args(server)
    assert _args(batch) == _args(reaper) == _args(server), "forks of the server"
    assert _args(worker).startswith("ray::_compile_on_node"), _args(worker)
    return [worker, server, reaper, batch, compile_]


@requires_ray
@pytest.mark.mindspore
def test_a_worker_killed_while_compiling_is_run_again_once_then_reported(cluster: str, tmp_path: Path) -> None:
    """The STRICT compile's worker is killed at both tries (SIGKILL, as the OOM killer would): it
    is reported; the LAX compile's at its first try only: it runs again, and compiles. Nothing of
    a killed worker is left, and nothing hangs."""
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "slow.py").write_text(SLOW.replace("MARKS_FOLDER", repr(str(marks))).lstrip())
    command = [*MSLINT, "verify", "slow.py", "--ray", cluster, "--no-cache", "--no-compare", "--format", "json"]
    verify = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed: list[int] = []
    tries = {"0": 0, "2": 0}
    seen = {"go-2"}
    try:
        deadline = time.monotonic() + 300
        while verify.poll() is None and time.monotonic() < deadline:
            for mark in sorted(set(os.listdir(marks)) - seen):
                seen.add(mark)
                level = mark.split("-")[0]
                tries[level] += 1
                if level == "2" and tries[level] == 2:
                    (marks / "go-2").write_text("")
                else:
                    processes = _processes(mark)
                    os.kill(processes[0], signal.SIGKILL)
                    killed += processes
            time.sleep(0.05)
        out, err = verify.communicate(timeout=stretched(10))
    finally:
        verify.kill()
    assert tries == {"0": 2, "2": 2}, tries
    report = json.loads(out)
    lost = "the Ray worker was lost while compiling, 2 times (WorkerCrashedError): not verifiable"
    compiles = {c["level"]: (c["status"], c["reason"]) for c in report["compiles"]}
    assert compiles == {"strict": ("crashed", lost), "lax": ("compiled", None)}, err
    (finding,) = report["findings"]
    assert finding["verdict"] == "confirmed" and {e["level"] for e in finding["evidence"]} == {"lax"}
    deadline = time.monotonic() + stretched(5)  # a compile batch sees its worker's lifeline cut within its poll
    while any(map(_alive, killed)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(killed) == 15 and not [pid for pid in killed if _alive(pid)], (
        "the killed workers' fork servers, batches and compiles"
    )


@requires_ray
@pytest.mark.mindspore
def test_ctrl_c_cancels_the_compiles_on_the_cluster(cluster: str, tmp_path: Path) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "slow.py").write_text(SLOW.replace("MARKS_FOLDER", repr(str(marks))).lstrip())
    command = [*MSLINT, "verify", "slow.py", "--ray", cluster, "--no-cache", "--no-compare"]
    verify = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while len(os.listdir(marks)) < 2 and verify.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(os.listdir(marks)) == 2, "both compiles are building the Cell"
        started = [pid for mark in os.listdir(marks) for pid in _processes(mark)]
        verify.send_signal(signal.SIGINT)
        out, err = verify.communicate(timeout=stretched(5))
    finally:
        verify.kill()
    assert (verify.returncode, out, err) == (130, "", "mslint: interrupted by SIGINT\n")
    deadline = time.monotonic() + stretched(5)
    while any(map(_alive, started)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in started if _alive(pid)], "the compiles, their batches, fork servers and workers are gone"
