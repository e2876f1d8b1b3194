"""One truth however a run is made: cold, warm from the cache, ``--jobs 2`` and ``--no-cache`` give
the same JSON, also for namespace packages, star imports and imports the text scan misses; and a
cached result is dropped as soon as a module it looked for appears."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mslint.incremental import cache_file, check_incrementally
from mslint.settings import Settings
from tests.examples import RULES_DIR

Run = Callable[..., tuple[int, str, str]]
Write = Callable[[str, str], Path]
DATA = Path(__file__).parent / "data"

MATHX = """
import numpy as np


def relu(x):
    return np.maximum(x, 0)
"""
NAMESPACE_CALLER = """
from mindspore import nn

import app.utils.mathx
from app.utils.mathx import relu


class Net(nn.Cell):
    def construct(self, x):
        return relu(x) + app.utils.mathx.relu(x)
"""
STAR_CALLER = """
from mindspore import nn

from .helpers import *


class Net(nn.Cell):
    def construct(self, x):
        return relu(x)
"""
HIDDEN_IMPORT_CALLER = """
from mindspore import nn

x = 1; from helpers import relu  # noqa: E702


class Net(nn.Cell):
    def construct(self, x):
        return relu(x)
"""


@pytest.fixture
def check_json(run: Run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[dict[str, object]]]:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))

    def check(*args: str) -> list[dict[str, object]]:
        code, out, err = run("check", "--format", "json", "--fail-on", "error", *args)
        assert code in (0, 1), err
        findings: list[dict[str, object]] = json.loads(out)
        return findings

    return check


def every_way(check: Callable[..., list[dict[str, object]]], *paths: str) -> list[dict[str, object]]:
    """The findings of ``paths``, after asserting that every way of running gives the same."""
    truth = check(*paths, "--no-cache")
    assert check(*paths) == truth, "cold run with the cache"
    assert check(*paths) == truth, "warm run from the cache"
    assert check(*paths, "--jobs", "2") == truth, "--jobs 2 (warm)"
    assert check(*paths, "--jobs", "2", "--no-cache") == truth, "--jobs 2 without the cache"
    return truth


@pytest.mark.parametrize(
    "corpus",
    [RULES_DIR, *sorted(p for p in DATA.iterdir() if p.is_dir())],
    ids=lambda p: p.name,
)
def test_every_committed_corpus_gives_one_result(
    corpus: Path, check_json: Callable[..., list[dict[str, object]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(corpus)
    assert every_way(check_json, ".") or corpus.name == "train_script"


def test_a_namespace_package_helper_is_graph_code(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("app/utils/mathx.py", MATHX)
    write("app/model.py", NAMESPACE_CALLER)
    monkeypatch.chdir(tmp_path)
    found = every_way(check_json, ".")
    assert [(f["path"], f["line"], f["symbol"]) for f in found] == [
        ("app/utils/mathx.py", 5, "third-party-call-in-graph")
    ], "the numpy call in the helper, and no third-party call at the call site"


def test_a_namespace_package_resolves_from_a_run_of_one_file(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("app/utils/mathx.py", MATHX)
    write("app/model.py", NAMESPACE_CALLER)
    monkeypatch.chdir(tmp_path)
    assert every_way(check_json, "app/model.py") == [], "the helper is read, not reported, and not third-party"


def test_star_imported_helpers_are_graph_code(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("pkg/__init__.py", "")
    write("pkg/helpers.py", MATHX)
    write("pkg/net.py", STAR_CALLER)
    monkeypatch.chdir(tmp_path)
    found = every_way(check_json, ".")
    assert [(f["path"], f["line"], f["entry"]) for f in found] == [("pkg/helpers.py", 5, "Net.construct")]


def test_star_imports_follow_all_and_chains(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("pkg/__init__.py", "from .layers import *\n")
    write("pkg/layers.py", "from .base import *\n__all__ = ['Base']\n")
    write("pkg/base.py", "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n")
    write(
        "net.py",
        "import numpy as np\nfrom pkg import *\n\n\nclass Net(Base):\n"
        "    def construct(self, x):\n        return np.tanh(x)\n",
    )
    monkeypatch.chdir(tmp_path)
    found = every_way(check_json, ".")
    assert [(f["path"], f["line"]) for f in found] == [("net.py", 7)], "Base is a Cell, found through two star imports"


def test_an_import_the_text_scan_misses_still_joins_the_files(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("helpers.py", MATHX)
    write("net.py", HIDDEN_IMPORT_CALLER)
    monkeypatch.chdir(tmp_path)
    found = every_way(check_json, ".")
    assert [(f["path"], f["line"]) for f in found] == [("helpers.py", 5)]
    settings = Settings(root=tmp_path)
    files = [Path("helpers.py"), Path("net.py")]
    assert check_incrementally(files, settings, cache_file(settings)).cached_files == 2, "the join is remembered"


BASE = "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n"


def test_a_module_that_appears_invalidates_the_cache(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write(
        "net.py",
        "from pkg.base import Base\n\n\nclass Net(Base):\n    def construct(self, x):\n        return x.asnumpy()\n",
    )
    monkeypatch.chdir(tmp_path)
    assert check_json("net.py") == [], "pkg/base.py is missing: Net is not known to be a Cell"
    write("pkg/base.py", BASE)
    assert [f["line"] for f in check_json("net.py")] == [6]
    assert check_json("net.py") == check_json("net.py", "--no-cache")


def test_an_init_file_that_appears_invalidates_the_cache(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, check_json: Callable[..., list[dict[str, object]]]
) -> None:
    write("pkg/base.py", BASE)
    write(
        "pkg/user.py",
        "from base import Base\n\n\nclass Net(Base):\n    def construct(self, x):\n        return x.asnumpy()\n",
    )
    monkeypatch.chdir(tmp_path)
    assert [f["line"] for f in check_json("pkg/user.py")] == [6], "pkg/ is the import root: 'base' is pkg/base.py"
    write("pkg/__init__.py", "")
    assert check_json("pkg/user.py") == [], "now pkg is a package: 'base' is a top-level module, and there is none"
    assert check_json("pkg/user.py") == check_json("pkg/user.py", "--no-cache")
