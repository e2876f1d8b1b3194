"""``mslint verify --shard auto`` in a simulated job array, then ``mslint verify merge``: the
merged result equals one run over every entry. The compiles are stand-ins (:mod:`tests.verify_fakes`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint.verify.runner import Job
from tests import verify_fakes

Run = Callable[..., tuple[int, str, str]]

NET = """
import numpy as np
from mindspore import nn


class A(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.exp(x)  # falls back


class B(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        y = x + 1  # falls back
        return np.log(y)


class C(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.sqrt(x)  # fails


class D(nn.Cell):  # two inputs: nothing says which is what
    def construct(self, x, y):
        return np.abs(x)


class E(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return x * 2
"""
ARGUMENTS = ("verify", "net.py", "--all", "--format", "json", "--no-cache")


@pytest.fixture
def compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    verify_fakes.write_tree(tmp_path, {"net.py": NET})
    monkeypatch.chdir(tmp_path)
    for variable in ("MSLINT_SHARD_INDEX", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "CI_NODE_INDEX"):
        monkeypatch.delenv(variable, raising=False)
    return verify_fakes.install(monkeypatch, tmp_path / "cache")


def _shards(run: Run, monkeypatch: pytest.MonkeyPatch, count: int, *extra: str) -> list[Path]:
    """Run the shards of a Kubernetes Indexed Job of ``count`` completions; their result files."""
    monkeypatch.setenv("MSLINT_SHARD_COUNT", str(count))
    paths = []
    for index in range(count):
        monkeypatch.setenv("JOB_COMPLETION_INDEX", str(index))
        code, out, err = run(*ARGUMENTS, "--shard", "auto", *extra)
        assert code in (0, 1), err
        assert (
            json.loads(out)["shard"]["found_in"]
            == "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, MSLINT_SHARD_COUNT)"
        )
        path = Path(f"shard{index + 1}.json")
        path.write_text(out)
        paths.append(path)
    return paths


def _comparable(result: dict[str, Any]) -> dict[str, Any]:
    """What one machine's result and the merged one share: all but the times and the shards."""
    compiles = sorted(
        ({k: v for k, v in c.items() if k != "wall_s"} for c in result["compiles"]),
        key=lambda c: (c["path"], c["name"], c["level"]),
    )
    return {"findings": result["findings"], "compiler_only": result["compiler_only"], "compiles": compiles}


@pytest.mark.parametrize("count", [2, 3, 5])
def test_the_merged_shards_equal_one_run_over_every_entry(
    count: int, monkeypatch: pytest.MonkeyPatch, run: Run, compiles: list[Job]
) -> None:
    _, out, _ = run(*ARGUMENTS)
    whole = json.loads(out)
    verdicts = {(f["line"], f["verdict"]) for f in whole["findings"]}
    assert {(7, "confirmed"), (13, "not-reproduced"), (18, "confirmed"), (23, "not-verifiable")} <= verdicts
    assert [(c["line"], c["kind"]) for c in whole["compiler_only"]] == [(12, "fallback")]
    whole_compiles = sorted((job.name, job.level) for job in compiles)
    compiles.clear()

    shards = _shards(run, monkeypatch, count)
    assert sorted((job.name, job.level) for job in compiles) == whole_compiles  # each entry compiled once
    code, out, err = run("verify", "merge", *map(str, shards), "-o", "all.json")
    assert (code, err) == (0, "")
    merged = json.loads(Path("all.json").read_text())
    assert _comparable(merged) == _comparable(whole)
    assert merged["merged"]["count"] == count


BUILT_BY_AN_EXAMPLE = """

class F(nn.Cell):
    def construct(self, x):
        y = np.abs(x)  # fails
        return np.exp(y)
"""
FACTORIES = """
from net import F


def make_f():
    return F(), ()
"""


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_a_cell_built_by_an_example_goes_with_it_so_its_findings_are_judged_as_in_one_run(
    count: int, monkeypatch: pytest.MonkeyPatch, run: Run, compiles: list[Job]
) -> None:
    # F has no input specs: only make_f builds it, and its compile stops at the first finding's line
    verify_fakes.write_tree(Path.cwd(), {"net.py": NET + BUILT_BY_AN_EXAMPLE, "factories.py": FACTORIES})
    example = ("--example", "factories.py:make_f")
    _, out, _ = run(*ARGUMENTS, *example)
    Path("whole.json").write_text(out)
    whole = json.loads(out)
    found = {f["line"]: (f["verdict"], f["reason"] or "") for f in whole["findings"] if f["line"] > 31}
    assert found[33][0] == "confirmed" and found[34][1].startswith("the compile stopped at net.py:33")

    shards = _shards(run, monkeypatch, count, *example, "--durations", "whole.json")
    owners = [json.loads(path.read_text())["shard"]["entries"] for path in shards]
    assert [("net.py:F" in own) for own in owners] == [("factories.py:make_f" in own) for own in owners]
    assert run("verify", "merge", *map(str, shards), "-o", "all.json")[0] == 0
    assert _comparable(json.loads(Path("all.json").read_text())) == _comparable(whole)


ARRAYS = {
    # the variables each job array of docs/verify.md sets for its task i (from 0) of n
    "GitHub Actions matrix (env: from strategy.job-index, strategy.job-total)": lambda i, n: {
        "MSLINT_SHARD_INDEX": str(i),
        "MSLINT_SHARD_COUNT": str(n),
    },
    "Kubernetes Indexed Job (completions: n, env MSLINT_SHARD_COUNT)": lambda i, n: {
        "JOB_COMPLETION_INDEX": str(i),
        "MSLINT_SHARD_COUNT": str(n),
    },
    "Slurm array (--array=1-7:2)": lambda i, n: {
        "SLURM_ARRAY_TASK_ID": str(1 + 2 * i),
        "SLURM_ARRAY_TASK_COUNT": str(n),
        "SLURM_ARRAY_TASK_MIN": "1",
        "SLURM_ARRAY_TASK_MAX": str(1 + 2 * (n - 1)),
        "SLURM_ARRAY_TASK_STEP": "2",
    },
    "GitLab parallel: n": lambda i, n: {"CI_NODE_INDEX": str(i + 1), "CI_NODE_TOTAL": str(n)},
}


@pytest.mark.parametrize("array", ARRAYS)
def test_each_job_array_of_the_docs_verifies_every_entry_once(
    array: str, monkeypatch: pytest.MonkeyPatch, run: Run, compiles: list[Job]
) -> None:
    _, out, _ = run(*ARGUMENTS)
    whole = json.loads(out)
    compiles.clear()
    for index in range(4):
        with monkeypatch.context() as task:
            for variable, value in ARRAYS[array](index, 4).items():
                task.setenv(variable, value)
            code, out, err = run(*ARGUMENTS, "--shard", "auto")
        assert code in (0, 1), err
        assert json.loads(out)["shard"]["index"] == index + 1
        Path(f"shard{index}.json").write_text(out)
    assert len(compiles) == len(whole["compiles"])
    assert run("verify", "merge", *(f"shard{index}.json" for index in range(4)), "-o", "all.json")[0] == 0
    assert _comparable(json.loads(Path("all.json").read_text())) == _comparable(whole)


def test_the_report_reads_a_merged_result(monkeypatch: pytest.MonkeyPatch, run: Run, compiles: list[Job]) -> None:
    shards = _shards(run, monkeypatch, 2)
    assert run("verify", "merge", *map(str, shards), "-o", "all.json")[0] == 0
    code, out, err = run("report", "net.py", "--verify-results", "all.json", "--format", "json")
    assert (code, err) == (0, "")
    verified = {e["name"]: e["verified"] for e in json.loads(out)["entries"]}
    assert verified["A.construct"]["lax"]["status"] == "falls-back"
    assert verified["C.construct"]["strict"]["status"] == "fails"
    assert verified["E.construct"]["strict"]["status"] == "compiles"


def _edit(path: Path, **shard: object) -> None:
    document = json.loads(path.read_text())
    document["shard"].update(shard)
    path.write_text(json.dumps(document))


def test_a_missing_or_repeated_shard_or_one_of_another_commit_is_an_error_that_names_it(
    monkeypatch: pytest.MonkeyPatch, run: Run, compiles: list[Job]
) -> None:
    first, second, third = _shards(run, monkeypatch, 3)
    assert run("verify", "merge", str(first), str(third), "-o", "all.json") == (
        2,
        "",
        "mslint: error: shard 2/3 missing: give every shard\n",
    )
    assert run("verify", "merge", str(first), str(second), str(second), "-o", "all.json")[2] == (
        "mslint: error: shard 2/3 is given twice: shard2.json and shard2.json\n"
    )
    _edit(third, commit="0123456789abcdef0123")
    assert run("verify", "merge", str(first), str(second), str(third), "-o", "all.json")[2] == (
        "mslint: error: shard3.json (shard 3/3) is of commit 0123456789ab, "
        "shard1.json (shard 1/3) of commit none (not a git work tree)\n"
    )
    _edit(third, commit=None, split="another")
    assert (
        "shard3.json (shard 3/3) split the entries otherwise than shard1.json"
        in run("verify", "merge", str(first), str(second), str(third), "-o", "all.json")[2]
    )
    _edit(third, split=json.loads(first.read_text())["shard"]["split"], count=4)
    assert run("verify", "merge", str(first), str(third), "-o", "all.json")[2] == (
        "mslint: error: shard3.json is shard 3/4 and shard1.json shard 1/3: not shards of one split\n"
    )
    assert not Path("all.json").exists()


def test_a_result_without_a_shard_is_not_merged(run: Run, compiles: list[Job]) -> None:
    _, out, _ = run(*ARGUMENTS)
    Path("whole.json").write_text(out)
    assert run("verify", "merge", "whole.json", "-o", "all.json") == (
        2,
        "",
        "mslint: error: whole.json: not the result of a shard: `mslint verify` wrote it without --shard\n",
    )
    Path("bad.json").write_text("[]")
    assert run("verify", "merge", "bad.json", "-o", "all.json")[2] == (
        "mslint: error: bad.json: not the output of `mslint verify --shard ... --format json`\n"
    )
    shard = {"findings": [{"path": "net.py"}], "compiler_only": [], "compiles": [], "shard": {"index": 1, "count": 1}}
    Path("cut.json").write_text(json.dumps(shard))
    assert run("verify", "merge", "cut.json", "-o", "all.json")[2] == (
        "mslint: error: cut.json: not the output of `mslint verify --shard ... --format json`: "
        "a finding or compile is not whole\n"
    )
