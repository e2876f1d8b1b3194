"""The MindSpore releases mslint describes, and how a run picks one (``--mindspore-version``)."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from mslint.mindspore_tables import (
    DATA,
    attribute_table,
    default_release,
    described_releases,
    installed_version,
    module_table,
    release_for,
    releases_with,
    table,
)
from mslint.rules._call_signatures import parse_signature
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
    signatures = table("api", release)["signatures"]
    assert signatures["mindspore.ops"]["full"] == "(size: list | tuple, fill_value, *, dtype=...)"
    assert signatures["mindspore"]["Parameter"].startswith("(default_input, name=..., requires_grad=...")


def test_described_releases_are_the_installable_ones_oldest_first() -> None:
    releases = described_releases()
    assert releases == ("2.7.0", "2.7.1", "2.7.2", "2.8.0", "2.9.0", "2.10.0")
    assert sorted(p.name for p in DATA.glob("*.json")) == sorted(
        [f"{kind}-{r}.json" for r in releases for kind in ("api", "jit-forbidden")]
        + [f"syntax-{r}.json" for r in syntax_releases()]
        + [f"messages-{r}.json" for r in releases_with("messages")]
        + [f"attributes-{r}.json" for r in releases_with("attributes")]  # the nearest older one serves
        + [f"modules-{r}.json" for r in releases_with("modules")]  # only the release read is judged
        + [f"inference-{r}.json" for r in releases_with("inference")]  # docs/type-inference.md's measured rows
        + [f"augassign-{r}.json" for r in releases_with("augassign")]  # augmented assignment, graph vs PyNative
        + [f"bytecode-{r}.json" for r in releases_with("bytecode")]  # capture_mode="bytecode", sampled forms
        + [f"trace-{r}.json" for r in releases_with("trace")]  # capture_mode="trace"
        + [f"arguments-{r}.json" for r in releases_with("arguments")]  # argument constraints, measured
        + [f"tensor-signatures-{r}.json" for r in releases_with("tensor-signatures")]  # Tensor method forms
        + [f"kernels-{r}.json" for r in releases_with("kernels")]  # what the CPU has no kernel for, measured
        + [f"folds-{r}.json" for r in releases_with("folds")]  # the conditions on constants the compiler folds
        + [f"shadowed-{r}.json" for r in releases_with("shadowed")]  # a Cell attribute named as a Cell member
        + [f"transfer-disagreements-{r}.json" for r in releases_with("transfer-disagreements")]  # transfer functions
        + ["pytorch-differences.json"]  # measured on one release, used for all
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


def test_installed_versions_are_read_as_importlib_metadata_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder, version in (("first", "2.8.1"), ("second", "2.9.0")):
        info = tmp_path / folder / "Fake_Dist-2.8.1.dist-info"  # the first on sys.path wins, by its METADATA
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: fake-dist\nVersion: {version}\n\nVersion: 0\n")
    egg = tmp_path / "third" / "other.egg-info"
    egg.mkdir(parents=True)
    (egg / "PKG-INFO").write_text("Metadata-Version: 1.0\nName: other\nVersion: 1.2\n")
    (tmp_path / "third" / "fake_dist_plugin-9.0.dist-info").mkdir()
    for folder in ("third", "second", "first"):
        monkeypatch.syspath_prepend(str(tmp_path / folder))
    # Python 3.9's importlib.metadata does not normalize a name spelled with capitals and dots
    # (later ones do, as pip does): mslint finds it on every Python.
    spellings = ("Fake.Dist",) if sys.version_info >= (3, 10) else ()
    for name in ("fake-dist", "fake_dist", *spellings, "other", "fake-dist-plugin", "missing"):
        try:
            expected: str | None = metadata.version(name)
        except metadata.PackageNotFoundError:
            expected = None
        assert installed_version(name) == expected
    assert installed_version("fake-dist") == installed_version("Fake.Dist") == "2.8.1"


def test_checking_does_not_import_importlib_metadata(tmp_path: Path) -> None:
    """It imports the email package: a fifth of the start-up of a one-file run."""
    (tmp_path / "net.py").write_text("x = 1\n")
    probe = (
        "import sys\nfrom mslint.cli import main\n"
        f"main(['check', '--no-cache', {str(tmp_path / 'net.py')!r}])\n"
        "print('importlib.metadata' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    assert result.stdout.splitlines()[-1] == "False", result.stderr


def test_the_targeted_release_decides_what_exists(write, run) -> None:
    path = write("similarity.py", NEW_IN_2_10)
    assert run("check", str(path), "--no-cache", "--mindspore-version", "2.10")[0] == 0
    code, out, _ = run("check", str(path), "--no-cache", "--mindspore-version", "2.9", "--format", "json")
    assert code == 1
    assert [d["message"] for d in json.loads(out)] == ["`mindspore.mint.vdot` does not exist in MindSpore 2.9.0"]


def test_modules_are_judged_only_against_the_release_that_was_read(write, run) -> None:
    """MindSpore 1.x's transforms modules are gone from 2.10; no table of 2.9's modules is
    shipped, so none is guessed for it."""
    modules = module_table("2.10.0")
    assert modules is not None and "mindspore.dataset.vision" in modules
    assert "mindspore.dataset.vision.c_transforms" not in modules
    assert module_table("2.9.0") is None
    path = write("data.py", "import mindspore.dataset.vision.c_transforms as C\n")
    code, out, _ = run("check", str(path), "--no-cache", "--mindspore-version", "2.10", "--format", "json")
    assert (code, [d["message"] for d in json.loads(out)]) == (
        1,
        ["module `mindspore.dataset.vision.c_transforms` does not exist in MindSpore 2.10.0"],
    )
    assert run("check", str(path), "--no-cache", "--mindspore-version", "2.9")[0] == 0


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


def test_a_signature_text_reads_as_python_binds_arguments() -> None:
    signature = parse_signature("(size: list | tuple, fill_value, *values, dtype=..., out)")
    assert [(p.name, p.required, p.types) for p in signature.positional] == [
        ("size", True, ("list", "tuple")),
        ("fill_value", True, ()),
    ]
    assert [(p.name, p.required) for p in signature.keyword_only] == [("dtype", False), ("out", True)]
    assert signature.variadic
    assert not parse_signature("(x, y=...)").variadic


def test_a_release_without_an_attribute_table_reads_the_nearest_measured_one() -> None:
    assert attribute_table("2.7.0") is table("attributes", releases_with("attributes")[0])
    assert "training" in attribute_table("2.10.0")["Cell"] and "name" in attribute_table("2.10.0")["Parameter"]
