"""The cache and --jobs: same findings as a plain run, and cross-file facts invalidate correctly."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mslint import incremental, workers
from mslint.cache_signature import sign, signed_payload, signing_key
from mslint.engine import check_files
from mslint.incremental import cache_file, check_incrementally
from mslint.settings import Settings
from tests.examples import RULES_DIR, example_files

Write = Callable[[str, str], Path]

BASE = """
from mindspore import nn


class Base(nn.Cell):
    pass
"""
NOT_A_CELL = """
class Base:
    pass
"""
NET = """
import numpy as np

from models.base import Base


class Net(Base):
    def construct(self, x):
        return np.tanh(x)
"""
OTHER = """
import numpy as np
from mindspore import nn


class Other(nn.Cell):
    def construct(self, x):
        return np.exp(x)
"""


def read_document(cache: Path) -> Any:
    """The cache's JSON document, checked against the user's key as a run checks it."""
    key = signing_key()
    assert key is not None
    payload = signed_payload(cache.read_bytes(), key)
    assert payload is not None, "the cache is signed with the user's key"
    return json.loads(payload)


def write_document(cache: Path, text: str) -> None:
    """A cache file signed as a run of this user signs it: only its content is wrong."""
    key = signing_key()
    assert key is not None
    cache.write_bytes(sign(text.encode(), key))


def findings(paths: list[Path], settings: Settings, cache: Path | None, jobs: int = 1) -> set[tuple[str, int, str]]:
    report = check_incrementally(paths, settings, cache, jobs)
    return {(Path(d.path).name, d.line, d.symbol) for d in report.diagnostics}


@pytest.fixture
def project(write: Write, tmp_path: Path) -> tuple[list[Path], Settings, Path]:
    files = [
        write("models/__init__.py", ""),
        write("models/base.py", BASE),
        write("models/net.py", NET),
        write("models/other.py", OTHER),
    ]
    settings = Settings(root=tmp_path)
    return files, settings, cache_file(settings)


def test_a_warm_run_reads_everything_from_the_cache(project: tuple[list[Path], Settings, Path]) -> None:
    files, settings, cache = project
    cold = check_incrementally(files, settings, cache)
    warm = check_incrementally(files, settings, cache)
    assert cold.cached_files == 0 and warm.cached_files == len(files)
    assert warm.diagnostics == cold.diagnostics == check_files(files, settings).diagnostics
    assert cache.is_file() and (cache.parent.parent / ".gitignore").is_file()


def test_editing_only_the_base_class_file_updates_the_subclass_findings(
    project: tuple[list[Path], Settings, Path], write: Write
) -> None:
    files, settings, cache = project
    assert ("net.py", 8, "third-party-call-in-graph") in findings(files, settings, cache)
    write("models/base.py", NOT_A_CELL)
    assert ("net.py", 8, "third-party-call-in-graph") not in findings(files, settings, cache)
    write("models/base.py", BASE)
    assert ("net.py", 8, "third-party-call-in-graph") in findings(files, settings, cache)


def test_a_base_class_file_outside_the_run_invalidates_too(
    project: tuple[list[Path], Settings, Path], write: Write
) -> None:
    files, settings, cache = project
    net_only = [files[2]]
    assert findings(net_only, settings, cache) == {("net.py", 8, "third-party-call-in-graph")}
    write("models/base.py", NOT_A_CELL)
    assert findings(net_only, settings, cache) == set()


def test_an_unrelated_edit_leaves_other_components_cached(
    project: tuple[list[Path], Settings, Path], write: Write
) -> None:
    files, settings, cache = project
    check_incrementally(files, settings, cache)
    write("models/other.py", OTHER.replace("np.exp(x)", "x"))
    report = check_incrementally(files, settings, cache)
    assert report.cached_files == 3, "only other.py, which nothing imports, is analysed again"
    assert {(Path(d.path).name, d.symbol) for d in report.diagnostics} == {("net.py", "third-party-call-in-graph")}


def test_settings_are_part_of_the_key(project: tuple[list[Path], Settings, Path]) -> None:
    files, settings, cache = project
    check_incrementally(files, settings, cache)
    narrowed = settings.with_options(ignore=("MS101",))
    assert cache_file(narrowed) != cache
    assert findings(files, narrowed, cache_file(narrowed)) == set()


def test_a_corrupt_cache_is_ignored(project: tuple[list[Path], Settings, Path]) -> None:
    files, settings, cache = project
    expected = findings(files, settings, cache)
    write_document(cache, "{not json")
    assert findings(files, settings, cache) == expected
    assert read_document(cache)["components"], "and it is rewritten"


def test_parallel_runs_find_the_same() -> None:
    files = example_files(RULES_DIR)
    settings = Settings()
    serial = check_files(files, settings).diagnostics
    assert check_incrementally(files, settings, None, jobs=2).diagnostics == serial


@pytest.mark.parametrize(
    ("sizes", "idle", "expected"),
    [
        ([60_000] * 10, 2, 2),  # 600 kB in ten groups: 300 kB off the longest share
        ([60_000] * 10, 16, 16),
        ([100_000] * 4, 2, 1),  # 200 kB saved: below the threshold
        ([2_000_000], 16, 1),  # one group: one process whatever the cores
        ([2_000_000, 100_000], 16, 1),  # the largest group is the run's length
        ([2_000_000, 300_000], 16, 16),
        ([60_000] * 10, 1, 1),  # no idle core (the machine's load): serial
        ([], 16, 1),
    ],
)
def test_the_default_jobs_are_the_idle_cores_where_spreading_saves_enough(
    sizes: list[int], idle: int, expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(workers, "idle_cores", lambda: idle)
    assert workers.PARALLEL_FROM_BYTES == 250_000, "the figures above assume the measured threshold"
    assert workers.automatic_jobs(sizes) == expected


@pytest.mark.parametrize(
    ("cores", "load", "idle"), [(2, 0.1, 2), (2, 0.6, 1), (2, 8.0, 1), (16, 3.4, 13), (16, 0.0, 16)]
)
def test_idle_cores_leave_out_the_load(cores: int, load: float, idle: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "available_cores", lambda: cores)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert workers.idle_cores() == idle


def test_the_default_runs_a_large_tree_in_parallel_with_the_same_findings(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve independent projects of about 50 kB: spread over the idle cores, as serial finds them."""
    padding = "\n".join(f"CONSTANT_{i} = {i}" for i in range(3_000))
    files = [write(f"project{i}/net.py", OTHER.replace("Other", f"Net{i}") + padding) for i in range(12)]
    settings = Settings(root=tmp_path)
    serial = check_incrementally(files, settings, None, jobs=1).diagnostics
    assert len(serial) == 12
    pools: list[int] = []
    real_pool = incremental.process_pool

    def counted(workers_asked: int) -> Any:
        pools.append(workers_asked)
        return real_pool(workers_asked)

    monkeypatch.setattr(incremental, "process_pool", counted)
    monkeypatch.setattr(incremental, "available_cores", lambda: 2)
    monkeypatch.setattr(workers, "idle_cores", lambda: 2)
    assert check_incrementally(files, settings, None, jobs=None).diagnostics == serial
    assert pools == [2]
    monkeypatch.setattr(workers, "idle_cores", lambda: 1)
    assert check_incrementally(files, settings, None, jobs=None).diagnostics == serial
    assert pools == [2], "no idle core: serial"
    assert check_incrementally(files[:2], settings, None, jobs=None).diagnostics == serial[:2]
    assert pools == [2], "a small run: serial"


def test_a_parallel_run_without_cache_digests_no_file_for_it(
    project: tuple[list[Path], Settings, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    files, settings, _ = project
    expected = check_files(files, settings).diagnostics
    monkeypatch.setattr(incremental, "_digest_of", lambda path: pytest.fail(f"{path} digested for no cache"))
    assert check_incrementally(files, settings, None, jobs=2).diagnostics == expected


def test_a_parallel_run_of_one_component_takes_the_report_analysed_while_splitting(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The split into components costs a serial run nothing where it finds one component."""
    files = [write("models/__init__.py", ""), write("models/base.py", BASE), write("models/net.py", NET)]
    settings = Settings(root=tmp_path)
    expected = check_files(files, settings).diagnostics
    assert expected

    def analyse(components: list[Any], *args: object) -> list[Any]:
        assert not components, "analysed again after the split"
        return []

    monkeypatch.setattr(incremental, "_analyse", analyse)
    assert check_incrementally(files, settings, None, jobs=2).diagnostics == expected


def test_an_error_in_the_speculative_analysis_is_raised_as_a_serial_run_raises_it(
    write: Write, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = [write("models/__init__.py", ""), write("models/base.py", BASE), write("models/net.py", NET)]

    def broken(*args: object) -> None:
        raise ValueError("a bug")

    monkeypatch.setattr(incremental, "check_files", broken)
    with pytest.raises(ValueError, match="a bug"):
        check_incrementally(files, Settings(root=tmp_path), None, jobs=2)


def test_no_cache_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Callable[..., tuple[int, str, str]], write: Write
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MSLINT_CACHE_DIR", raising=False)
    write("net.py", OTHER)
    assert run("check", "net.py", "--no-cache")[0] == 1
    assert not (tmp_path / ".mslint_cache").exists()
    assert run("check", "net.py")[0] == 1
    assert (tmp_path / ".mslint_cache").is_dir()


def _wrong_shapes(document: dict[str, Any]) -> list[Any]:
    """Valid JSON caches of other shapes, derived from a real one."""
    key, component = next(iter(document["components"].items()))
    path, found = next((p, f) for p, f in component["files"].items() if f)
    line_as_text = {**found[0], "diagnostic": {**found[0]["diagnostic"], "line": "8"}}
    imports, joins = document["imports"], document["joins"]
    return [
        [],
        {"components": [], "imports": {}, "joins": []},
        {"components": {key: []}, "imports": imports, "joins": joins},
        {"components": {key: {"files": [], "context": {}}}, "imports": imports, "joins": joins},
        {"components": {key: {**component, "files": {path: [line_as_text]}}}, "imports": imports, "joins": joins},
        {"components": {key: {**component, "files": {"elsewhere.py": found}}}, "imports": imports, "joins": joins},
        {"components": document["components"], "imports": {d: "models.base" for d in imports}, "joins": joins},
        {**document, "extra": 1},
        [[[[[[]]]]]] * 3,
        {**document, "joins": [["a.py"]]},
        {**document, "joins": "a.py"},
    ]


@pytest.mark.parametrize("variant", range(11))
def test_a_cache_of_another_shape_is_discarded(project: tuple[list[Path], Settings, Path], variant: int) -> None:
    files, settings, cache = project
    expected = check_files(files, settings).diagnostics
    check_incrementally(files, settings, cache)
    write_document(cache, json.dumps(_wrong_shapes(read_document(cache))[variant]))
    assert check_incrementally(files, settings, cache).diagnostics == expected
    assert check_incrementally(files, settings, cache).diagnostics == expected, "and the rewritten cache is sound"


def test_a_cache_whose_import_lists_lie_still_gives_the_same_results(
    project: tuple[list[Path], Settings, Path],
) -> None:
    """The variant that used to change results silently: imports recorded as none split the
    base class and its subclass into separate components."""
    files, settings, cache = project
    expected = check_files(files, settings).diagnostics
    check_incrementally(files, settings, cache)
    document = read_document(cache)
    lying = {"components": {}, "imports": {key: [] for key in document["imports"]}, "joins": []}
    write_document(cache, json.dumps(lying))
    assert check_incrementally(files, settings, cache).diagnostics == expected
    assert check_incrementally(files, settings, cache, jobs=2).diagnostics == expected


def test_another_build_of_mslint_reads_another_cache(tmp_path: Path) -> None:
    """A development install whose rules changed keeps its version: its files tell the builds apart.
    On a copy of the package: the smokes on other Pythons import the same checkout side by side."""
    package = tmp_path / "mslint"
    shutil.copytree(Path(incremental.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = incremental.code_fingerprint(package)
    rule = package / "rules" / "unsupported_syntax" / "__init__.py"
    stat = rule.stat()
    os.utime(rule, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    incremental.code_fingerprint.cache_clear()
    assert incremental.code_fingerprint(package) != before
    os.utime(rule, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    incremental.code_fingerprint.cache_clear()
    assert incremental.code_fingerprint(package) == before


IMPORT_TEXT = b"""\
import os, numpy as np  # a comment
  from .base import (Base,
      Head as H)  # from hidden import x
x = 1; import not_a_statement
text = "from quoted import inside"
def f():
    from ..utils import seed \\
        , log
    return x; from after_semicolon import y
from a.b import *
ximport wrong
from c import d; from e import f
"""


def test_the_import_scan_finds_statements_at_the_start_of_lines_only() -> None:
    """The text scan that splits a run into components (an over-approximation of the imports)."""
    found = incremental._imported_modules(Path("pkg/sub/mod.py"), "pkg.sub.mod", IMPORT_TEXT)
    assert found == [
        "a.b",
        "c",
        "c.d",
        "numpy",
        "os",
        "pkg.sub.base",
        "pkg.sub.base.Base",
        "pkg.sub.base.Head",
        "pkg.utils",
        "pkg.utils.log",
        "pkg.utils.seed",
    ]
