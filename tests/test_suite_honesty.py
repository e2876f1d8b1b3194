"""The suite runs what it claims where it claims: no test that needs MindSpore skips for want of it,
none skips as root (CI runs as root), what needs the network or a program says so and CI
provides it, and no wall-clock bound assumes an idle machine."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests import load
from tests.conftest import refuse_measurements_without_mindspore
from tests.examples import REPO
from tests.installed import shipped_for_installed

TESTS = REPO / "tests"


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(TESTS.glob("*.py")):
        yield path, ast.parse(path.read_text(), str(path))


def calls_named(tree: ast.AST, name: str) -> Iterator[ast.Call]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called == name:
                yield node


def places(found: Iterator[tuple[Path, ast.AST]]) -> list[str]:
    return [f"{path.name}:{node.lineno}" for path, node in found]


def test_no_test_skips_for_want_of_mindspore() -> None:
    """A broken MindSpore import must fail the tests marked ``mindspore``, not turn them into skips:
    where MindSpore has no wheel, the README's command deselects them with ``-m "not mindspore"``."""
    skips = (
        (path, call)
        for path, tree in modules()
        for call in calls_named(tree, "importorskip")
        if call.args and isinstance(call.args[0], ast.Constant) and str(call.args[0].value).startswith("mindspore")
    )
    assert places(skips) == []


def test_no_mindspore_test_skips() -> None:
    """A test marked ``mindspore`` runs where MindSpore is installed, as CI installs it: a skip in
    it (a table missing for the installed release, a failed import) would pass CI on a broken or
    wrong install. It fails instead, saying what to install or deselect (``tests.installed``). The
    one skip allowed is for an extra the README's command leaves out and .ci/run's install, which
    fails without it, brings (``mslint[ray]``): .ci/run's suite runs those tests."""
    ci_extras = re.search(r'pip install --quiet -e "\.\[([\w,]+)\]"', (REPO / ".ci" / "run").read_text())
    assert ci_extras
    skipping = [
        (path, call)
        for path, tree in modules()
        for test in marked_tests(tree, "mindspore")
        for call in skips_of(tree, test)
        if not any(extra in ci_extras[1].split(",") for extra in re.findall(r"mslint\[(\w+)\]", ast.unparse(call)))
    ]
    assert places(iter(skipping)) == []
    ray_tests = [test.name for _, tree in modules() for test in marked_tests(tree, "mindspore") if skips_of(tree, test)]
    assert len(ray_tests) == 3, "the skips allowed are seen: the Ray tests' decorator"


def skips_of(module: ast.Module, test: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Call]:
    """The skips in ``test``: its calls and its decorators, those named at the module's level too."""
    named = {
        target.id: node.value
        for node in module.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    decorators = [named[d.id] for d in test.decorator_list if isinstance(d, ast.Name) and d.id in named]
    return [
        call
        for node in (test, *decorators)
        for name in ("skip", "importorskip", "skipif")
        for call in calls_named(node, name)
    ]


@pytest.mark.mindspore
def test_a_measurement_without_a_shipped_table_for_the_installed_release_fails(tmp_path: Path) -> None:
    """What a checkout with another MindSpore release installed sees: the pin and the way out."""
    shipped = REPO / "mslint" / "data" / f"syntax-{metadata.version('mindspore')}.json"
    assert shipped_for_installed(shipped) == shipped
    with pytest.raises(
        pytest.fail.Exception, match=r"syntax-0\.0\.json .* mindspore==2\.10\.0, or deselect .* -m 'not measurement'"
    ):
        shipped_for_installed(tmp_path / "syntax-0.0.json")


def marked_tests(module: ast.Module, marker: str) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The test functions of ``module`` that carry ``marker``, their own or the module's."""
    mark = f"mark.{marker}"
    whole = any(
        isinstance(node, ast.Assign)
        and any(isinstance(target, ast.Name) and target.id == "pytestmark" for target in node.targets)
        and mark in ast.unparse(node.value)
        for node in module.body
    )
    for node in module.body:
        is_test = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test_")
        if is_test and (whole or any(mark in ast.unparse(decorator) for decorator in node.decorator_list)):
            yield node


def test_no_test_skips_on_a_failed_import() -> None:
    """``importorskip`` turns a broken install into skips. The dev extra installs what the tests
    import on every Python it supports; a test that cannot run on some Python skips on the version
    (``skipif(sys.version_info < ...)``), so an install that fails where it should work fails the test."""
    skips = ((path, call) for path, tree in modules() for call in calls_named(tree, "importorskip"))
    assert places(skips) == []


def test_no_test_skips_as_root() -> None:
    """CI runs as root: a test skipped for root never runs there. A test that needs root (giving
    a file to another user) may skip elsewhere: ``skipif(os.geteuid() != 0, ...)`` runs in CI."""
    skips = (
        (path, call)
        for path, tree in modules()
        for name in ("skipif", "skip")
        for call in calls_named(tree, name)
        if "geteuid" in ast.unparse(call) and not _runs_as_root(call)
    )
    assert places(skips) == []


def _runs_as_root(skip: ast.Call) -> bool:
    return bool(skip.args) and ast.unparse(skip.args[0]) == "os.geteuid() != 0"


def test_the_tests_that_install_from_the_package_index_are_marked_network() -> None:
    """The pre-commit hook's test builds the hook's environment with pip, from the package index."""
    unmarked = []
    for path, tree in modules():
        for function in (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")):
            runs_pre_commit = any(True for _ in calls_named(function, "pre_commit_run"))
            marked = any("mark.network" in ast.unparse(decorator) for decorator in function.decorator_list)
            if runs_pre_commit and not marked:
                unmarked.append(f"{path.name}:{function.name}")
    assert unmarked == []
    assert any("mark.network" in path.read_text() for path, _ in modules()), "the marker is used"


def test_the_measurements_need_mindspore_and_ci_runs_them_once() -> None:
    """A ``measurement`` test is a ``mindspore`` one (the command without MindSpore deselects it):
    the collection refuses one that is not (``conftest.refuse_measurements_without_mindspore``),
    and so collects them; .ci/run's own command runs the whole suite, measurements included, and
    the other Pythons' leave only them out."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-m", "measurement"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert int(done.stdout.strip().splitlines()[-1].split("/")[0].split()[0]) > 30

    def marked(*names: str) -> Any:
        return SimpleNamespace(
            nodeid=f"tests/test_x.py::{'_'.join(names)}", iter_markers=lambda: [SimpleNamespace(name=n) for n in names]
        )

    refuse_measurements_without_mindspore([marked("measurement", "mindspore"), marked("mindspore"), marked()])
    with pytest.raises(pytest.UsageError, match=r"tests/test_x.py::measurement$"):
        refuse_measurements_without_mindspore([marked("measurement", "mindspore"), marked("measurement")])
    ci = (REPO / ".ci" / "run").read_text()
    assert "\npython -m pytest -n auto --dist loadgroup\n" in ci
    readme_command = (REPO / ".ci" / "readme_command").read_text()
    assert readme_command.count('-m \\"not measurement\\"') == 2


def test_ci_installs_the_programs_the_tests_drive() -> None:
    """The Neovim and browser tests fail rather than skip under CI: .ci/run installs their Debian packages."""
    ci = (REPO / ".ci" / "run").read_text()
    install = next(line for line in ci.splitlines() if "apt-get install" in line)
    assert {"neovim", "chromium", "chromium-driver"} <= set(install.split())
    language_server = (TESTS / "test_language_server.py").read_text()
    assert 'os.environ.get("CI")' in language_server.split("def test_the_neovim_snippet_gets_the_findings")[1]


def test_no_wall_clock_bound_is_a_bare_number() -> None:
    """``assert seconds < 2`` fails on a loaded machine; bounds go through :func:`tests.load.stretched`."""
    bare = (
        (path, node)
        for path, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and node.left.id in ("seconds", "elapsed", "took")
        and any(isinstance(c, ast.Constant) and isinstance(c.value, (int, float)) for c in node.comparators)
    )
    assert places(bare) == []


def test_a_bound_holds_at_a_load_of_16_on_2_cores(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(load, "available_cores", lambda: 2)
    monkeypatch.setattr(load, "LOADAVG", tmp_path / "absent")
    monkeypatch.setattr(os, "getloadavg", lambda: (16.0, 16.0, 16.0))
    assert load.stretched(2) == 16
    monkeypatch.setattr(os, "getloadavg", lambda: (0.5, 0.5, 0.5))
    assert load.stretched(2) == 2, "never less than on an idle machine"


def test_a_bound_holds_the_moment_the_load_jumps_to_16_on_2_cores(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Five seconds after 14 processes join 2, the minute's average reads 3.1: the runnable count decides."""
    monkeypatch.setattr(load, "available_cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (3.1, 2.2, 2.0))
    monkeypatch.setattr(load, "LOADAVG", tmp_path / "loadavg")
    load.LOADAVG.write_text("3.10 2.20 2.00 16/312 4242\n")
    assert load.stretched(2) == 16
    load.LOADAVG.write_text("3.10 2.20 2.00 1/312 4242\n")
    assert load.stretched(2) == 3.1, "the average, once the jump is over"
