"""The MindSpore releases mslint describes, and how a run picks one (``--mindspore-version``)."""

from __future__ import annotations

import json
from importlib import metadata

import pytest

from mslint.mindspore_tables import DATA, default_release, described_releases, release_for, releases_with, table
from mslint.syntax_table import syntax_releases

NEW_IN_2_10 = """
from mindspore import mint


def similarity(x, y):
    return mint.vdot(x, y)
"""


@pytest.mark.parametrize("release", described_releases())
def test_every_described_release_has_both_tables_of_itself(release: str) -> None:
    for kind in ("api", "jit-forbidden"):
        assert table(kind, release)["mindspore"] == release
    assert len(table("api", release)["namespaces"]["mindspore.ops"]) > 500


def test_described_releases_are_the_installable_ones_oldest_first() -> None:
    releases = described_releases()
    assert releases == ("2.7.0", "2.7.1", "2.7.2", "2.8.0", "2.9.0", "2.10.0")
    assert sorted(p.name for p in DATA.glob("*.json")) == sorted(
        [f"{kind}-{r}.json" for r in releases for kind in ("api", "jit-forbidden")]
        + [f"syntax-{r}.json" for r in syntax_releases()]
        + [f"messages-{r}.json" for r in releases_with("messages")]
    )


def test_a_series_names_its_newest_release_and_unknown_ones_are_refused() -> None:
    assert release_for("2.10") == "2.10.0"
    assert release_for("2.7") == "2.7.2"
    assert release_for("2.9.0") == "2.9.0"
    with pytest.raises(ValueError, match=r"no tables for MindSpore 2\.6 \(it describes 2\.7"):
        release_for("2.6")


@pytest.mark.mindspore
def test_the_default_is_the_installed_release() -> None:
    assert default_release() == metadata.version("mindspore")


def test_the_targeted_release_decides_what_exists(write, run) -> None:
    path = write("similarity.py", NEW_IN_2_10)
    assert run("check", str(path), "--no-cache", "--mindspore-version", "2.10")[0] == 0
    code, out, _ = run("check", str(path), "--no-cache", "--mindspore-version", "2.9", "--format", "json")
    assert code == 1
    assert [d["message"] for d in json.loads(out)] == ["`mindspore.mint.vdot` does not exist in MindSpore 2.9.0"]


def test_the_release_can_be_configured_and_a_bad_one_is_one_line(write, run) -> None:
    path = write("similarity.py", NEW_IN_2_10)
    write("pyproject.toml", '[tool.mslint]\nmindspore-version = "2.9"\n')
    assert run("check", str(path), "--no-cache")[0] == 1
    assert run("check", str(path), "--no-cache", "--mindspore-version", "2.10")[0] == 0, "the command line wins"
    write("pyproject.toml", '[tool.mslint]\nmindspore-version = "1.8"\n')
    code, out, err = run("check", str(path), "--no-cache")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and "no tables for MindSpore 1.8" in err
    write("pyproject.toml", "[tool.mslint]\n")
    code, _, err = run("check", str(path), "--no-cache", "--mindspore-version", "latest")
    assert code == 2 and err == "mslint: error: 'latest' is not a MindSpore version\n"
