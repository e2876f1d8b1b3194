"""``mslint verify --expect STATUS.csv``: the readiness gate fails only when an entry's verified
status gets worse. The compiles are stand-ins (:mod:`tests.verify_fakes`): a line ending with
``# falls back`` falls back in LAX, one ending with ``# fails`` stops the STRICT compile."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.verify.runner import Job
from tests import verify_fakes

Run = Callable[..., tuple[int, str, str]]

NET = """
import numpy as np
from mindspore import nn


class A(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        y = x * 2  # falls back
        return np.exp(y)  # falls back


class B(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return x + 1


class C(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return np.sqrt(x)  # fails
"""
VERIFY = ("verify", "models/net.py", "--all", "--format", "json")
EXPECTED = """entry,strict,lax,lax_fallback_lines
models.net:A,compiles,falls-back,2
models.net:B,compiles,compiles,0
models.net:C,fails,compiles,0
"""


@pytest.fixture
def compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[Job]:
    (tmp_path / "models").mkdir()
    verify_fakes.write_tree(tmp_path / "models", {"__init__.py": "", "net.py": NET})
    monkeypatch.chdir(tmp_path)
    return verify_fakes.install(monkeypatch, tmp_path / "cache")


def _edit(old: str, new: str) -> None:
    path = Path("models/net.py")
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_update_expect_records_each_entry_by_qualified_name(run: Run, compiles: list[Job]) -> None:
    code, _, err = run(*VERIFY, "--expect", "status.csv", "--update-expect")
    assert (code, err) == (0, "mslint: status.csv updated (3 entries verified in this run)\n")
    assert Path("status.csv").read_text() == EXPECTED
    strict = (*VERIFY, "--syntax-level", "strict")
    code, out, _ = run(*strict)
    assert code == 1  # without the gate, the confirmed errors (in STRICT) fail the run
    gated, gated_out, err = run(*strict, "--expect", "status.csv")
    assert (gated, err) == (0, "")
    assert {**json.loads(gated_out), "seconds": 0} == {**json.loads(out), "seconds": 0}


def test_the_gate_fails_when_an_entry_that_compiled_starts_failing(run: Run, compiles: list[Job]) -> None:
    Path("status.csv").write_text(EXPECTED)
    _edit("return x + 1", "return x + 1  # fails")
    code, _, err = run(*VERIFY, "--expect", "status.csv")
    assert (code, err) == (1, "mslint: regression: models.net:B: STRICT fails, expected compiles\n")
    assert Path("status.csv").read_text() == EXPECTED


def test_edits_and_moves_that_keep_every_outcome_pass_and_leave_the_file_alone(run: Run, compiles: list[Job]) -> None:
    Path("status.csv").write_text(EXPECTED)
    _edit("class A(nn.Cell):", "# The first model.\n\n\nclass A(nn.Cell):")  # every line moves
    _edit("y = x * 2  # falls back", "z = x * 2  # falls back")
    _edit("np.exp(y)", "np.exp(z)")
    assert run(*VERIFY, "--expect", "status.csv")[::2] == (0, "")
    code, _, err = run(*VERIFY, "--expect", "status.csv", "--update-expect")
    assert (code, err) == (
        0,
        "mslint: status.csv unchanged, every status as expected (3 entries verified in this run)\n",
    )
    assert Path("status.csv").read_text() == EXPECTED


def test_more_fallback_lines_regress_and_fewer_improve(run: Run, compiles: list[Job]) -> None:
    Path("status.csv").write_text(EXPECTED)
    _edit("return x + 1", "return x + 1  # falls back")
    _edit("y = x * 2  # falls back", "y = x * 2\n        y = y * 2  # falls back\n        y = y + 1  # falls back")
    _edit("return np.sqrt(x)  # fails", "return np.sqrt(x)")
    code, _, err = run(*VERIFY, "--expect", "status.csv")
    assert code == 1
    assert err.splitlines() == [
        "mslint: regression: models.net:A: LAX falls back at 3 lines, expected falls back at 2 lines",
        "mslint: regression: models.net:B: LAX falls back at 1 line, expected compiles",
        "mslint: improved: models.net:C: STRICT compiles, expected fails (--update-expect records it)",
    ]


def test_new_entries_and_other_shards_entries_are_not_regressions(run: Run, compiles: list[Job]) -> None:
    Path("status.csv").write_text(
        EXPECTED.replace("models.net:B,compiles,compiles,0\n", "") + "gone:Old,fails,fails,0\n"
    )
    code, _, err = run(*VERIFY, "--expect", "status.csv")
    assert (code, err) == (0, "mslint: not in status.csv: models.net:B (--update-expect records it)\n")
    assert run(*VERIFY, "--expect", "status.csv", "--update-expect", "--shard", "1/3")[0] == 0
    rows = Path("status.csv").read_text().splitlines()
    assert "gone:Old,fails,fails,0" in rows and "models.net:A,compiles,falls-back,2" in rows


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (None, "status.csv: cannot read: No such file or directory: write it with --update-expect"),
        ("name,status\n", "status.csv:1: expected the header entry,strict,lax,lax_fallback_lines"),
        (
            EXPECTED + "models.net:D,compiled,compiles,0\n",
            "status.csv:5: expected an entry, two statuses and a number of lines: models.net:D,compiled,compiles,0",
        ),
    ],
)
def test_a_missing_or_broken_expectations_file_fails_before_any_compile(
    content: str | None, error: str, run: Run, compiles: list[Job]
) -> None:
    if content is not None:
        Path("status.csv").write_text(content)
    assert run(*VERIFY, "--expect", "status.csv") == (2, "", f"mslint: error: {error}\n")
    assert compiles == []
    assert run(*VERIFY, "--update-expect")[2] == (
        "mslint: error: --update-expect writes the file of --expect: give --expect too\n"
    )
