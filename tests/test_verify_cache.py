"""``mslint verify``'s result cache: a rerun compiles only the entries whose files (or the
files they import) changed, and never trusts an entry that is not whole. The compiles are
stand-ins (:mod:`tests.verify_fakes`); what is tested is which of them run."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint import atomic_write as atomic
from mslint.verify import command, replicas
from mslint.verify.cache import Runtime
from mslint.verify.runner import Job, Outcome
from mslint.verify.statuses import CRASHED
from tests import verify_fakes

Run = Callable[..., tuple[int, str, str]]

NET = """
from mindspore import nn

from helper import double


class A(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return double(x)  # falls back


class B(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return x + 1
"""
OTHER = """
from mindspore import nn


class C(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return x * 3
"""
HELPER = """
def double(x):
    return x * 2
"""
FACTORIES = """
from net import A


def make_a():
    return A(), ()
"""
VERIFY = ("verify", "net.py", "other.py", "--all", "--format", "json")


@pytest.fixture
def compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    files = {"net.py": NET, "other.py": OTHER, "helper.py": HELPER, "factories.py": FACTORIES}
    verify_fakes.write_tree(tmp_path, files)
    monkeypatch.chdir(tmp_path)
    return verify_fakes.install(monkeypatch, tmp_path / "cache")


def _compiled(run: Run, compiles: list[Job], *arguments: str) -> tuple[list[str], dict[str, Any]]:
    """The entries compiled by one run (sorted, once per level), and its JSON result."""
    compiles.clear()
    code, out, err = run(*VERIFY, *arguments)
    assert code == 0, err
    return sorted(f"{job.name}:{job.level}" for job in compiles), json.loads(out)


def _both(*names: str) -> list[str]:
    return sorted(f"{name}:{level}" for name in names for level in ("strict", "lax"))


def _entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*/*.json"))


def test_a_rerun_compiles_nothing_and_reports_the_same(run: Run, compiles: list[Job]) -> None:
    first, before = _compiled(run, compiles)
    assert first == _both("A", "B", "C")
    again, after = _compiled(run, compiles)
    assert again == []
    assert after["findings"] == before["findings"] and after["compiler_only"] == before["compiler_only"]
    assert [c["cached"] for c in before["compiles"]] == [False] * 6
    assert [{**c, "cached": False} for c in after["compiles"]] == before["compiles"]
    assert all(c["cached"] for c in after["compiles"])
    assert len(_entries(Path("cache/verify"))) == 6


def test_an_edit_compiles_again_only_the_entries_that_reach_the_edited_file(run: Run, compiles: list[Job]) -> None:
    _compiled(run, compiles)
    Path("other.py").write_text(OTHER.replace("x * 3", "x * 4"))
    assert _compiled(run, compiles)[0] == _both("C")
    Path("helper.py").write_text(HELPER.replace("x * 2", "x + x"))  # net.py imports it: A and B
    assert _compiled(run, compiles)[0] == _both("A", "B")
    Path("unrelated.py").write_text("VALUE = 1\n")
    assert _compiled(run, compiles)[0] == []
    Path("helper.py").write_text(HELPER)  # back as it was: the entry now holds the edited digest
    assert _compiled(run, compiles)[0] == _both("A", "B")


def test_an_example_is_compiled_again_when_its_file_or_the_cell_it_returned_changes(
    run: Run, compiles: list[Job]
) -> None:
    example = ("--example", "factories.py:make_a")
    assert _compiled(run, compiles, *example)[0] == _both("B", "C", "make_a")  # make_a built A
    assert _compiled(run, compiles, *example)[0] == []
    Path("other.py").write_text(OTHER.replace("x * 3", "x * 4"))
    assert _compiled(run, compiles, *example)[0] == _both("C")
    Path("helper.py").write_text(HELPER.replace("x * 2", "x + x"))
    assert _compiled(run, compiles, *example)[0] == _both("B", "make_a")
    Path("factories.py").write_text(FACTORIES + "\n\nSIZE = 2\n")
    assert _compiled(run, compiles, *example)[0] == _both("make_a")


def test_no_cache_neither_reads_nor_writes_and_cache_dir_moves_it(run: Run, compiles: list[Job]) -> None:
    assert _compiled(run, compiles, "--no-cache")[0] == _both("A", "B", "C")
    assert not Path("cache").exists()
    assert _compiled(run, compiles, "--cache-dir", "restored")[0] == _both("A", "B", "C")
    assert len(_entries(Path("restored"))) == 6 and not Path("cache").exists()
    assert _compiled(run, compiles, "--cache-dir", "restored")[0] == []
    assert _compiled(run, compiles)[0] == _both("A", "B", "C")  # the default folder is another
    code, _, err = run(*VERIFY, "--no-cache", "--cache-dir", "restored")
    assert (code, err) == (2, "mslint: error: --no-cache and --cache-dir: give one of them\n")


def test_another_mindspore_or_device_compiles_everything_again(
    run: Run, compiles: list[Job], monkeypatch: pytest.MonkeyPatch
) -> None:
    _compiled(run, compiles)
    monkeypatch.setattr(command, "mindspore_runtime", lambda requested: Runtime("2.11.0", "CPU"))
    assert _compiled(run, compiles)[0] == _both("A", "B", "C")
    monkeypatch.setattr(command, "mindspore_runtime", lambda requested: Runtime("2.11.0", "GPU"))
    assert _compiled(run, compiles)[0] == _both("A", "B", "C")
    assert _compiled(run, compiles)[0] == []


def _document(entry: Path) -> dict[str, Any]:
    """An entry's content, read past its signature (the first line)."""
    result: dict[str, Any] = json.loads(entry.read_text().partition("\n")[2])
    return result


def _tamper(entry: Path, change: Callable[[dict[str, Any]], None]) -> None:
    document = _document(entry)
    change(document)
    entry.write_text(json.dumps(document))


def test_a_tampered_or_broken_entry_is_never_used(run: Run, compiles: list[Job]) -> None:
    _compiled(run, compiles)
    entries = _entries(Path("cache/verify"))

    def stop_at_an_error(document: dict[str, Any]) -> None:
        document["outcome"]["stopped"] = "compile"

    _tamper(entries[0], stop_at_an_error)  # its signature no longer matches
    entries[1].write_text(entries[2].read_text())  # another compile's entry, whole, under this one's key
    entries[3].write_text('{"key": ')  # cut short
    recompiled, result = _compiled(run, compiles)
    assert len(recompiled) == 3
    assert not any(c["stopped"] for c in result["compiles"])
    assert _compiled(run, compiles)[0] == []  # written anew
    for entry in entries:
        assert _document(entry)["key"] == entry.stem


def test_an_entry_edited_and_hashed_again_is_never_used(run: Run, compiles: list[Job]) -> None:
    """Issue 42, item 6: a digest anyone can compute again does not protect an entry; the
    signature, made with the user's key, does (edited as the audit did, signature line kept)."""
    _compiled(run, compiles)
    entries = _entries(Path("cache/verify"))
    for entry in entries:
        *signature, content = entry.read_text().split("\n")
        document = json.loads(content)
        document["outcome"]["stopped"] = "compile"
        whole = {k: document[k] for k in ("key", "sources", "outcome")}
        document["digest"] = hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest()
        entry.write_text("\n".join([*signature, json.dumps(document, sort_keys=True)]))
    recompiled, result = _compiled(run, compiles)
    assert recompiled == _both("A", "B", "C")
    assert not any(c["stopped"] for c in result["compiles"])


def test_an_entry_that_is_a_fifo_is_compiled_again_without_waiting(run: Run, compiles: list[Job]) -> None:
    """Issue 42, item 3: the run neither reads an entry that is a FIFO (which waits for a
    writer) nor writes into it (which waits for a reader): it replaces it. After a minute, far
    past the run's second, a thread stands in for the other end, so that a run that waits ends
    and the test fails instead of hanging."""
    _compiled(run, compiles)
    entries = _entries(Path("cache/verify"))
    for entry in entries:
        entry.unlink()
        os.mkfifo(entry)
    done, waited = threading.Event(), []

    def stand_in_writer() -> None:
        if done.wait(60):
            return
        while not done.wait(0.1):
            for entry in entries:
                with contextlib.suppress(OSError):
                    os.close(os.open(entry, os.O_WRONLY | os.O_NONBLOCK))  # ENXIO where no reader waits
                    waited.append(entry)
                with contextlib.suppress(OSError):  # a writer that waits: take what it writes
                    reader = os.open(entry, os.O_RDONLY | os.O_NONBLOCK)
                    done.wait(0.5)
                    with contextlib.suppress(OSError):
                        while os.read(reader, 65536):
                            pass
                    os.close(reader)

    writer = threading.Thread(target=stand_in_writer, daemon=True)
    writer.start()
    try:
        recompiled, _ = _compiled(run, compiles)
    finally:
        done.set()
        writer.join()
    assert waited == [] and recompiled == _both("A", "B", "C")
    assert all(entry.is_file() for entry in entries)


def test_compiles_that_did_not_end_are_not_kept(run: Run, compiles: list[Job], monkeypatch: pytest.MonkeyPatch) -> None:
    def crashing(batch: list[Job], *_: object) -> list[Outcome]:
        compiles.extend(batch)
        return [Outcome(job, CRASHED, "compiler process crashed (SIGSEGV)") for job in batch]

    monkeypatch.setattr(command, "run_jobs", crashing)
    assert len(_compiled(run, compiles)[0]) == 6
    assert len(_compiled(run, compiles)[0]) == 6
    assert _entries(Path("cache/verify")) == []


def test_entries_are_written_beside_their_place_and_renamed_into_it(
    run: Run, compiles: list[Job], monkeypatch: pytest.MonkeyPatch
) -> None:
    renamed: list[tuple[Path, Path]] = []

    def replace(source: str, target: Path) -> None:
        renamed.append((Path(source), Path(target)))
        raise OSError("disk full")

    monkeypatch.setattr(atomic.os, "replace", replace)
    _compiled(run, compiles)
    assert len(renamed) == 6 and all(source.parent == target.parent for source, target in renamed)
    assert list(Path("cache/verify").rglob("*.json")) == [] and list(Path("cache/verify").rglob("*tmp")) == []
    assert Path("cache/verify/.gitignore").read_text() == "# Created by mslint\n*\n"


TRAIN = """
from mindspore import nn
from mindspore.communication import init

from layers import widen


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, widen(4))

    def construct(self, x):
        return self.dense(x)


def main():
    init()
    return Net()
"""
LAYERS = """
def widen(size):
    return size * 2
"""


@pytest.fixture
def replica_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[dict[str, Any]]]:
    """A distributed script whose ranks build apart (no msrun: each run's builds are recorded)."""
    verify_fakes.write_tree(tmp_path, {"train.py": TRAIN, "layers.py": LAYERS})
    monkeypatch.chdir(tmp_path)
    verify_fakes.install(monkeypatch, tmp_path / "cache")
    runs: list[list[dict[str, Any]]] = []

    def run_ranks(builds: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        runs.append(builds)
        sources = [str((tmp_path / "train.py").resolve())]
        return [{"cells": {"Net": {"dense.weight": str(rank)}}, "sources": sources, "error": None} for rank in (0, 1)]

    monkeypatch.setattr(replicas, "run_ranks", run_ranks)
    return runs


def _replica_verdicts(run: Run) -> list[str]:
    code, out, err = run("verify", "train.py", "--format", "json")
    assert code == 0, err
    return [f["verdict"] for f in json.loads(out)["findings"] if f["symbol"] == replicas.SYMBOL]


def test_a_rerun_starts_no_msrun_and_confirms_the_same(run: Run, replica_runs: list[list[dict[str, Any]]]) -> None:
    assert _replica_verdicts(run) == ["confirmed"]
    assert _replica_verdicts(run) == ["confirmed"]
    assert len(replica_runs) == 1


def test_an_edit_of_the_script_or_a_module_it_imports_runs_msrun_again(
    run: Run, replica_runs: list[list[dict[str, Any]]]
) -> None:
    _replica_verdicts(run)
    Path("train.py").write_text(TRAIN.replace("init()", "init()  # the cluster"))
    _replica_verdicts(run)
    assert len(replica_runs) == 2
    Path("layers.py").write_text(LAYERS.replace("size * 2", "size + size"))
    _replica_verdicts(run)
    assert len(replica_runs) == 3
    Path("unrelated.py").write_text("VALUE = 1\n")
    _replica_verdicts(run)
    assert len(replica_runs) == 3


@pytest.mark.parametrize(
    "failed",
    [
        "msrun with 2 CPU ranks exited with status 1: Segmentation fault",
        "msrun did not finish within the 300 s timeout (killed)",
        [{"cells": {}, "sources": [], "error": "MemoryError: "}] * 2,
    ],
    ids=["crashed", "timed-out", "a-rank-failed"],
)
def test_a_failed_msrun_is_not_kept(
    run: Run, monkeypatch: pytest.MonkeyPatch, replica_runs: list[list[dict[str, Any]]], failed: object
) -> None:
    def failing(builds: list[dict[str, Any]], timeout: float) -> object:
        replica_runs.append(builds)
        return failed

    monkeypatch.setattr(replicas, "run_ranks", failing)
    assert _replica_verdicts(run) == ["not-verifiable"]
    assert _replica_verdicts(run) == ["not-verifiable"]
    assert len(replica_runs) == 2


def test_no_replicas_starts_no_msrun_and_says_so(run: Run, replica_runs: list[list[dict[str, Any]]]) -> None:
    code, out, err = run("verify", "train.py", "--format", "json", "--no-replicas")
    assert code == 0, err
    findings = [f for f in json.loads(out)["findings"] if f["symbol"] == replicas.SYMBOL]
    assert [(f["verdict"], f["reason"]) for f in findings] == [
        ("not-verifiable", "--no-replicas: the Cells were not built on msrun ranks")
    ]
    assert replica_runs == []
    assert _replica_verdicts(run) == ["confirmed"], "a run with replicas is not served by one without"


HANDED_MODELS = """
from mindspore import nn


class Net(nn.Cell):
    def __init__(self, block, dim):
        super().__init__()
        self.block = block(dim)

    def construct(self, x):
        return self.block(x)
"""
HANDED_BLOCKS = """
from mindspore import nn


class Plain(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(x)
"""
HANDED_MAIN = """
from blocks import Plain
from models import Net

net = Net(Plain, 4)
"""


def test_an_edit_of_a_class_handed_to_the_constructor_compiles_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    """``Net(Plain, 4)``: ``models.py`` does not import ``blocks.py``, yet ``Net`` is built with
    its ``Plain``; an edit of it compiles ``Net`` again."""
    verify_fakes.write_tree(tmp_path, {"models.py": HANDED_MODELS, "blocks.py": HANDED_BLOCKS, "main.py": HANDED_MAIN})
    monkeypatch.chdir(tmp_path)
    compiles = verify_fakes.install(monkeypatch, tmp_path / "cache")
    arguments = ("verify", "models.py", "blocks.py", "main.py", "--all", "--format", "json")
    # `Plain` is an entry too, built as `block(dim)` in `Net.__init__` builds it.
    assert run(*arguments)[0] == 0
    assert sorted(job.name for job in compiles) == ["Net", "Net", "Plain", "Plain"]
    compiles.clear()
    Path("blocks.py").write_text(HANDED_BLOCKS.replace("nn.Dense(dim, dim)", "nn.Dense(dim, dim, has_bias=False)"))
    assert run(*arguments)[0] == 0
    assert sorted(job.name for job in compiles) == ["Net", "Net", "Plain", "Plain"]


def test_a_file_edited_while_it_compiles_keeps_no_outcome(
    run: Run, compiles: list[Job], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor saves helper.py while A and B compile: their outcomes may be the old file's, and
    are not kept under the new file's digest (C, which does not read it, is)."""
    compiling = command.run_jobs

    def edited_meanwhile(batch: list[Job], *rest: object) -> list[Outcome]:
        outcomes = compiling(batch, *rest)
        Path("helper.py").write_text(HELPER.replace("x * 2", "x + x"))
        return outcomes

    monkeypatch.setattr(command, "run_jobs", edited_meanwhile)
    assert _compiled(run, compiles)[0] == _both("A", "B", "C")
    monkeypatch.setattr(command, "run_jobs", compiling)
    assert _compiled(run, compiles)[0] == _both("A", "B")
