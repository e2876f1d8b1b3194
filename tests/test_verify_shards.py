"""``mslint verify --shard I/N``: the split of the entries, and which shard reports which finding.

The compiles are replaced by a stand-in that records the jobs: what is tested is the split,
not MindSpore."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.verify import command
from mslint.verify.runner import COMPILED, Job, Outcome
from mslint.verify.shards import Shard, entry_name

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]

ENTRIES = [f"models/{family}/net{number}.py:Net{number}" for family in ("a", "b", "c") for number in range(7)]

NET = """
import numpy as np
from mindspore import nn


class A(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.exp(x)


class B(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.log(x)


class C(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.sqrt(x)


class D(nn.Cell):
    def construct(self, x):
        return np.abs(x)
"""
FACTORIES = """
from net import D


def make_d():
    return D(), ()
"""


@pytest.mark.parametrize("count", [1, 2, 3, 4, 21, 30])
def test_every_entry_is_in_exactly_one_shard_and_shards_are_balanced(count: int) -> None:
    shards = [Shard(index, count).select(ENTRIES) for index in range(1, count + 1)]
    assert sorted(entry for shard in shards for entry in shard) == sorted(ENTRIES)
    sizes = [len(shard) for shard in shards]
    assert max(sizes) - min(sizes) <= 1


def test_the_split_does_not_depend_on_the_order_entries_are_found_in() -> None:
    expected = [Shard(index, 4).select(ENTRIES) for index in range(1, 5)]
    for seed in range(5):
        shuffled = random.Random(seed).sample(ENTRIES, len(ENTRIES))
        assert [Shard(index, 4).select(shuffled) for index in range(1, 5)] == expected


def test_entries_are_named_relative_to_the_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert entry_name(tmp_path / "models" / "net.py", "Net") == "models/net.py:Net"
    assert entry_name(Path("models/net.py"), "Net") == "models/net.py:Net"
    outside = tmp_path.parent / "other.py"
    assert entry_name(outside, "Net") == f"{outside.resolve().as_posix()}:Net"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0/4", "--shard '0/4': expected 1 <= I <= N"),
        ("5/4", "--shard '5/4': expected 1 <= I <= N"),
        ("1/0", "--shard '1/0': expected 1 <= I <= N"),
        ("-1/4", "--shard '-1/4': expected I/N, e.g. 2/4"),
        ("2", "--shard '2': expected I/N, e.g. 2/4"),
        ("a/b", "--shard 'a/b': expected I/N, e.g. 2/4"),
    ],
)
def test_bad_shards_are_one_line_usage_errors(text: str, expected: str, write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, out, err = run("verify", str(path), f"--shard={text}")
    assert (code, out, err) == (2, "", f"mslint: error: {expected}\n")


def test_a_shard_cannot_split_a_run_command(write: Write, run: Run) -> None:
    path = write("net.py", NET)
    code, out, err = run("verify", str(path), "--shard", "1/2", "--run", "python train.py")
    assert (code, out) == (2, "")
    assert err == "mslint: error: --shard splits the entries mslint compiles, not a --run command: run it in one job\n"


@pytest.fixture
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    """Every job "compiles" without a problem; an example factory ``make_x`` builds the Cell ``X``
    of net.py. Returns the jobs run."""
    jobs: list[Job] = []

    def run_jobs(batch: list[Job], *_: object) -> list[Outcome]:
        jobs.extend(batch)
        return [Outcome(job, COMPILED, compiled=_compiled(job)) for job in batch]

    monkeypatch.setattr(command, "run_jobs", run_jobs)
    monkeypatch.setattr(command, "check_device", lambda requested: None)
    return jobs


def _compiled(job: Job) -> dict[str, object]:
    if job.factory:
        return {"path": str(job.path.resolve().with_name("net.py")), "name": job.name[len("make_") :].upper()}
    return {"path": str(job.path.resolve()), "name": job.name}


@pytest.mark.parametrize("count", [2, 3, 4, 6])
def test_shards_report_each_finding_once_and_compile_each_entry_once(
    count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Write, run: Run, compiles: list[Job]
) -> None:
    write("net.py", NET)
    write("broken.py", "def broken(:\n")
    monkeypatch.chdir(tmp_path)
    arguments = ("verify", "net.py", "broken.py", "--format", "json")
    _, out, _ = run(*arguments)
    whole = sorted((f["path"], f["line"], f["verdict"]) for f in json.loads(out)["findings"])
    assert len(whole) == 5  # four Cells and the syntax error
    compiled_whole = sorted((j.name, j.level) for j in compiles)
    compiles.clear()

    found: list[tuple[str, int, str]] = []
    for index in range(1, count + 1):
        code, out, err = run(*arguments, "--shard", f"{index}/{count}")
        assert code == 0, err
        in_shard = [(f["path"], f["line"], f["verdict"]) for f in json.loads(out)["findings"]]
        assert (("broken.py", 1, "not-verifiable") in in_shard) == (index == 1)  # outside every entry: shard 1
        found += in_shard
    assert sorted(found) == whole
    assert sorted((j.name, j.level) for j in compiles) == compiled_whole


def test_a_finding_is_reported_by_the_shard_whose_example_compiles_its_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Write, run: Run, compiles: list[Job]
) -> None:
    write("net.py", NET)
    write("factories.py", FACTORIES)
    monkeypatch.chdir(tmp_path)
    names = ["factories.py:make_d", *(f"net.py:{cell}" for cell in "ABCD")]
    (owner,) = [index for index in (1, 2, 3) if "factories.py:make_d" in Shard(index, 3).select(names)]
    assert "net.py:D" not in Shard(owner, 3).select(names)  # D itself is dealt to another shard
    arguments = ("verify", "net.py", "--example", "factories.py:make_d", "--format", "json")
    _, out, _ = run(*arguments, "--shard", f"{owner}/3")
    lines = {f["line"]: f["verdict"] for f in json.loads(out)["findings"]}
    assert lines[22] == "not-reproduced"  # D.construct, built by the example: both levels compiled
    assert all(job.name != "D" for job in compiles)
