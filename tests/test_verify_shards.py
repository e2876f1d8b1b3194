"""``mslint verify --shard I/N``: the split of the entries, and which shard reports which finding.

The compiles are replaced by a stand-in that records the jobs: what is tested is the split,
not MindSpore."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.verify.runner import Job
from mslint.verify.shards import Shard, built_by, durations_of, entry_costs, entry_name, split
from tests import verify_fakes

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


class D(nn.Cell):  # two inputs: nothing says which is what
    def construct(self, x, y):
        return np.abs(x)
"""
FACTORIES = """
from net import D


def make_d():
    return D(), ()
"""


@pytest.mark.parametrize("count", [1, 2, 3, 4, 21, 30])
def test_every_entry_is_in_exactly_one_shard_and_shards_are_balanced(count: int) -> None:
    shards = [Shard(index, count).select(dict.fromkeys(ENTRIES, 1.0)) for index in range(1, count + 1)]
    assert sorted(entry for shard in shards for entry in shard) == sorted(ENTRIES)
    sizes = [len(shard) for shard in shards]
    assert max(sizes) - min(sizes) <= 1


def test_the_split_does_not_depend_on_the_order_entries_are_found_in() -> None:
    costs = {entry: float(len(entry) % 5) for entry in ENTRIES}
    expected = [Shard(index, 4).select(costs) for index in range(1, 5)]
    for seed in range(5):
        shuffled = dict(random.Random(seed).sample(sorted(costs.items()), len(costs)))
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
        ("-1/4", "--shard '-1/4': expected I/N, e.g. 2/4, or auto"),
        ("2", "--shard '2': expected I/N, e.g. 2/4, or auto"),
        ("a/b", "--shard 'a/b': expected I/N, e.g. 2/4, or auto"),
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
def compiles(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Job]:
    """Every job "compiles" without a problem; an example factory ``make_x`` builds the Cell ``X``
    of net.py. Returns the jobs run."""
    return verify_fakes.install(monkeypatch, tmp_path / "cache")


@pytest.mark.parametrize("count", [2, 3, 4, 6])
def test_shards_report_each_finding_once_and_compile_each_entry_once(
    count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Write, run: Run, compiles: list[Job]
) -> None:
    write("net.py", NET)
    write("broken.py", "def broken(:\n")
    monkeypatch.chdir(tmp_path)
    arguments = ("verify", "net.py", "broken.py", "--format", "json", "--no-cache")
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
    # lines; D has no input specs, so no compile
    costs = {"factories.py:make_d": 2.0, "net.py:A": 3.0, "net.py:B": 3.0, "net.py:C": 3.0, "net.py:D": 0.0}
    (owner,) = [index for index in (1, 2, 3) if "factories.py:make_d" in Shard(index, 3).select(costs)]
    assert "net.py:D" not in Shard(owner, 3).select(costs)  # D itself is dealt to another shard
    arguments = ("verify", "net.py", "--example", "factories.py:make_d", "--format", "json", "--no-cache")
    _, out, _ = run(*arguments, "--shard", f"{owner}/3")
    lines = {f["line"]: f["verdict"] for f in json.loads(out)["findings"]}
    assert lines[22] == "not-reproduced"  # D.construct, built by the example: both levels compiled
    assert all(job.name != "D" for job in compiles)


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}, (2, 3)),  # GitLab: from 1
        ({"JOB_COMPLETION_INDEX": "0", "MSLINT_SHARD_COUNT": "4"}, (1, 4)),  # Kubernetes: from 0
        ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "0"}, (4, 4)),
        (  # sbatch --array=1-7:2: tasks 1, 3, 5, 7
            {
                "SLURM_ARRAY_TASK_ID": "5",
                "SLURM_ARRAY_TASK_COUNT": "4",
                "SLURM_ARRAY_TASK_MIN": "1",
                "SLURM_ARRAY_TASK_STEP": "2",
            },
            (3, 4),
        ),
        ({"MSLINT_SHARD_INDEX": "1", "MSLINT_SHARD_COUNT": "2", "CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "5"}, (2, 2)),
    ],
)
def test_auto_reads_the_job_array(environ: dict[str, str], expected: tuple[int, int]) -> None:
    shard = Shard.parse("auto", environ)
    assert (shard.index, shard.count) == expected
    assert shard.found_in is not None


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        (
            {},
            "not in a job array: none of MSLINT_SHARD_INDEX, SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, "
            "CI_NODE_INDEX is set",
        ),
        (
            {"JOB_COMPLETION_INDEX": "1"},
            "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not MSLINT_SHARD_COUNT, the number of jobs",
        ),
        (
            {"CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"},
            "CI_NODE_INDEX=4 is not one of the 3 jobs of a GitLab parallel job (CI_NODE_TOTAL=3)",
        ),
        (
            {"CI_NODE_INDEX": "x", "CI_NODE_TOTAL": "3"},
            "CI_NODE_INDEX='x' (a GitLab parallel job): expected a whole number",
        ),
        (
            {
                "SLURM_ARRAY_TASK_ID": "4",
                "SLURM_ARRAY_TASK_COUNT": "4",
                "SLURM_ARRAY_TASK_MIN": "1",
                "SLURM_ARRAY_TASK_STEP": "2",
            },
            "task 4 of a Slurm array that does not run from 1 by 2",
        ),
    ],
)
def test_auto_outside_a_job_array_or_in_a_broken_one_says_why(environ: dict[str, str], expected: str) -> None:
    with pytest.raises(ValueError, match=re.escape(f"--shard auto: {expected}")):
        Shard.parse("auto", environ)


def test_shard_auto_outside_a_job_array_is_a_usage_error(
    write: Write, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("MSLINT_SHARD_INDEX", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "CI_NODE_INDEX"):
        monkeypatch.delenv(variable, raising=False)
    code, out, err = run("verify", str(write("net.py", NET)), "--shard", "auto")
    assert (code, out) == (2, "")
    assert err.startswith("mslint: error: --shard auto: not in a job array")


def test_costly_entries_are_spread_so_that_the_shards_end_together() -> None:
    costs = {f"net{n}.py:Net": float(cost) for n, cost in enumerate([40, 35, 30, 5, 5, 5, 4, 3, 3, 2, 2, 1])}
    loads = [sum(costs[name] for name in shard) for shard in split(costs, 3)]
    assert sorted(loads) == [45.0, 45.0, 45.0]
    by_count = [sum(costs[name] for name in Shard(i, 3).select(dict.fromkeys(costs, 1.0))) for i in (1, 2, 3)]
    assert max(by_count) > 1.3 * sum(by_count) / 3  # what the split by count gives on the same entries


def test_a_cell_goes_with_the_example_that_built_it_at_no_cost_of_its_own() -> None:
    earlier = {"compiles": [{"entry": f"ex.py:make_{n}", "example": True, "wall_s": 1.0} for n in "abc"]}
    for compile_, cell in zip(earlier["compiles"], ["A", "A", "C"]):
        compile_["compiled"] = {"path": "net.py", "name": cell, "line": 1}
    earlier["compiles"].append({"entry": "net.py:B", "example": False, "wall_s": 1.0, "compiled": {"path": "net.py"}})
    assert built_by(earlier) == {"net.py:A": "ex.py:make_a", "net.py:C": "ex.py:make_c"}  # A: the first by name
    costs = {"ex.py:make_a": 9.0, "ex.py:make_b": 5.0, "ex.py:make_c": 4.0, "net.py:A": 8.0, "net.py:C": 0.0}
    shards = split(costs, 2, built_by(earlier))
    assert shards == [{"ex.py:make_a", "net.py:A"}, {"ex.py:make_b", "ex.py:make_c", "net.py:C"}]
    assert split(costs, 2) == [{"ex.py:make_a", "ex.py:make_c", "net.py:C"}, {"net.py:A", "ex.py:make_b"}]
    assert split(costs, 2, {"net.py:A": "gone.py:make_g", "ex.py:make_b": "net.py:C", "net.py:C": "x"}) == split(
        costs, 2
    )  # nothing leads that is not an entry or goes with another itself


def test_a_shard_compiles_its_costliest_entries_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Write, run: Run, compiles: list[Job]
) -> None:
    write("net.py", NET)
    monkeypatch.chdir(tmp_path)
    earlier = {"compiles": [{"entry": f"net.py:{name}", "wall_s": cost} for name, cost in zip("ABC", [1.0, 9.0, 5.0])]}
    Path("earlier.json").write_text(json.dumps(earlier))
    arguments = ("verify", "net.py", "--all", "--format", "json", "--no-cache", "--durations", "earlier.json")
    assert run(*arguments, "--shard", "1/1")[0] == 0
    assert [job.name for job in compiles] == ["B", "B", "C", "C", "A", "A"]  # D: no input specs


def test_an_entry_without_a_duration_costs_its_size_at_the_measured_seconds_per_line_of_its_kind() -> None:
    built = {"a.py:A": 10, "b.py:B": 30, "c.py:C": 20}
    costs = entry_costs([built], {"a.py:A": 4.0, "b.py:B": 6.0, "gone.py:G": 50.0})
    assert costs == {"a.py:A": 4.0, "b.py:B": 6.0, "c.py:C": 5.0}  # 10 s for 40 lines
    assert entry_costs([{"a.py:A": 10, "b.py:B": 0}], {}) == {"a.py:A": 10.0, "b.py:B": 1.0}
    assert entry_costs([{}, {"a.py:A": 10}], {"a.py:A": 3.0}) == {"a.py:A": 3.0}  # no example at all
    examples = {"ex.py:make_a": 2, "ex.py:make_b": 2, "ex.py:make_c": 2}
    costs = entry_costs([examples, {"big.py:Big": 400}], {"ex.py:make_a": 20.0, "ex.py:make_b": 10.0})
    assert costs == {"ex.py:make_a": 20.0, "ex.py:make_b": 10.0, "ex.py:make_c": 15.0, "big.py:Big": 15.0}


def test_durations_of_an_earlier_result_balance_the_shards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Write, run: Run, compiles: list[Job]
) -> None:
    write("net.py", NET)
    monkeypatch.chdir(tmp_path)
    earlier = {"compiles": [{"entry": "net.py:A", "wall_s": 9.0}, {"entry": "net.py:A", "wall_s": 3.0}]}
    earlier["compiles"] += [{"path": str(tmp_path / "net.py"), "name": name, "wall_s": 2.0} for name in "BCD"]
    Path("earlier.json").write_text(json.dumps(earlier))
    assert durations_of(earlier) == {"net.py:A": 12.0, "net.py:B": 2.0, "net.py:C": 2.0, "net.py:D": 2.0}
    arguments = ("verify", "net.py", "--all", "--format", "json", "--no-cache", "--durations", "earlier.json")
    owned = [json.loads(run(*arguments, "--shard", f"{i}/2")[1])["shard"]["entries"] for i in (1, 2)]
    assert owned == [["net.py:A"], ["net.py:B", "net.py:C", "net.py:D"]]  # by count: A and C, B and D
    assert sorted(job.name for job in compiles) == ["A", "A", "B", "B", "C", "C"]  # D has no input specs
    code, _, err = run("verify", "net.py", "--durations", "earlier.json")
    assert (code, err) == (2, "mslint: error: --durations balances the shards of --shard: give --shard too\n")
