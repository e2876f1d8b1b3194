"""How the analysis grows with the tree: what a tree of many projects side by side costs must
grow with its lines, not with how many projects repeat the same module names."""

from __future__ import annotations

import ast
import gc
import shutil
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mslint import incremental
from mslint import settings as settings_module
from mslint.discovery import discover
from mslint.engine import Report, check_files
from mslint.incremental import DisjointSets, RunFile, _components, check_incrementally
from mslint.model import binder, walk
from mslint.model.binder import enclosing_blocks
from mslint.model.module import ModuleInfo
from mslint.model.project import Project
from mslint.model.walk import descendants, statements
from mslint.rules.ms_op_in_data_pipeline import _sets_spawn
from mslint.settings import Settings
from tests.examples import RULES_DIR

DATA = Path(__file__).parent / "data"


class _CountedPath(type(Path())):  # type: ignore[misc]
    """A path that counts the comparisons made with it."""

    comparisons: ClassVar[int] = 0

    def __eq__(self, other: object) -> bool:
        _CountedPath.comparisons += 1
        return super().__eq__(other)

    __hash__ = type(Path()).__hash__


def test_a_module_finds_its_own_project_s_module_of_a_shared_name(tmp_path: Path) -> None:
    projects = 400
    modules = [
        ModuleInfo(
            path=tmp_path / f"project{i}" / "src" / "utils.py",
            name="src.utils",
            root=_CountedPath(tmp_path / f"project{i}"),
            tree=ast.Module(body=[], type_ignores=[]),
            text="",
            checked=True,
        )
        for i in range(projects)
    ]
    project = Project()
    for module in modules:
        project.add(module)
    _CountedPath.comparisons = 0
    assert all(project.module_named("src.utils", module) is module for module in modules)
    # One lookup each, not a scan of every project's module of that name (80,000 comparisons).
    assert _CountedPath.comparisons <= 2 * projects


def test_the_components_of_projects_sharing_module_names_cost_unions_per_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    projects = 300
    run_files, imports = [], {}
    for i in range(projects):
        root = tmp_path / f"project{i}"
        for module, imported in (("src.utils", []), ("train", ["src", "src.utils"])):
            path = root / (module.replace(".", "/") + ".py")
            digest = f"{module}{i}"
            run_file = RunFile(path, str(path), digest, root, module, 1)
            imports[run_file.imports_key] = imported
            run_files.append(run_file)
    joins = 0
    join = DisjointSets.join

    def counted(self: DisjointSets, first: int, second: int) -> None:
        nonlocal joins
        joins += 1
        join(self, first, second)

    monkeypatch.setattr(DisjointSets, "join", counted)
    components = _components(run_files, imports, [])
    # An import finds a module under a folder around the importer, never in the project beside it.
    assert sorted(len(c) for c in components) == [2] * projects
    assert joins <= 3 * len(run_files)  # not one per importer and module of the name: 90,000


def test_the_trees_are_freed_before_the_garbage_collector_is_back(tmp_path: Path) -> None:
    cell = "class Net{0}(nn.Cell):\n    def construct(self, x):\n        return ops.relu(x) + {0}\n\n"
    paths = []
    for index in range(20):
        path = tmp_path / f"module{index}.py"
        path.write_text("from mindspore import nn, ops\n\n" + "".join(cell.format(i) for i in range(100)))
        paths.append(path)
    scanned: list[int] = []

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            scanned.append(len(gc.get_objects(generation=0)))  # the young objects, scanned by every collection

    assert gc.isenabled()
    gc.collect()
    gc.callbacks.append(collecting)
    try:
        report = check_files(paths, Settings())
        del report
        [object() for _ in range(10_000)]  # allocations that start a collection if one is due
    finally:
        gc.callbacks.remove(collecting)
    # The analysis makes some 200,000 objects: none of them may be left to the collector.
    assert max(scanned, default=0) < 20_000


def _held(make: Callable[[], object]) -> tuple[object, int]:
    """What ``make`` returns, and the bytes it holds."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        made = make()
        return made, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def test_a_module_keeps_its_source_once(tmp_path: Path) -> None:
    source = "".join(f"x = 1  # row {i}\n" for i in range(20_000))  # the same tree for every line
    _, tree = _held(lambda: ast.parse(source))
    module, held = _held(lambda: ModuleInfo.parse(tmp_path / "table.py", source, checked=True))
    assert isinstance(module, ModuleInfo)
    assert (module.line(3), module.line(20_000), module.line(20_001)) == ("x = 1  # row 2", "x = 1  # row 19999", "")
    assert module.line_count == len(module.source_lines) == 20_000
    # The tree, the text and the index of names; a list of the lines besides cost three times the text.
    assert held - tree <= 2 * len(source), (held, tree)


def test_the_blocks_around_nodes_are_kept_only_for_nodes_inside_blocks() -> None:
    function = ast.parse("def f(x):\n    y = x + 1\n    for i in y:\n        z = i\n    return y\n").body[0]
    loop = function.body[1]  # type: ignore[attr-defined]
    assert isinstance(loop, ast.For)
    blocks = enclosing_blocks(function)
    assert set(blocks.values()) == {(loop,)}
    assert set(blocks) == {id(node) for statement in loop.body for node in descendants(statement)}


def descendants_cached(tree: ast.AST) -> bool:
    """Whether the tree has been walked (:mod:`mslint.model.walk` memoizes the walk)."""
    return walk._DESCENDANTS.get(tree) is not None


def walked_into(module: ModuleInfo) -> bool:
    """Whether the module's tree or one of its top-level statements has been walked."""
    return any(descendants_cached(node) for node in [module.tree, *module.tree.body])


def _findings(paths: list[Path], root: Path) -> list[dict[str, Any]]:
    settings = Settings(root=root)
    return [d.to_json() for d in check_files(discover(paths, settings).files, settings).diagnostics]


@pytest.mark.parametrize("tree", [RULES_DIR, *sorted(p for p in DATA.iterdir() if p.is_dir())], ids=lambda p: p.name)
def test_projects_side_by_side_each_find_what_they_find_alone(tree: Path, tmp_path: Path) -> None:
    """A zoo of projects with the same module names: each project's imports lead to its own
    modules, so each copy of a committed tree has the findings of the tree checked alone."""
    copies = [tmp_path / f"project{i}" for i in range(3)]
    for copy in copies:
        shutil.copytree(tree, copy)
    alone = [{**d, "path": str(Path(d["path"]).relative_to(copies[0]))} for d in _findings(copies[:1], tmp_path)]
    by_copy: dict[str, list[dict[str, Any]]] = {copy.name: [] for copy in copies}
    for finding in _findings(copies, tmp_path):
        copy, *inside = Path(finding["path"]).relative_to(tmp_path).parts
        by_copy[copy].append({**finding, "path": str(Path(*inside))})
    assert alone
    assert all(found == alone for found in by_copy.values())


@pytest.mark.parametrize(
    ("fact", "needed_in_text"),
    [
        (Project.generator_names, "yield"),
        (lambda p: [_sets_spawn(m) for m in p.modules], "set_multiprocessing_start_method"),
    ],
    ids=["generator names", "spawn start method"],
)
def test_a_fact_about_the_modules_walks_only_modules_whose_text_can_hold_it(
    tmp_path: Path, fact: Callable[[Project], object], needed_in_text: str
) -> None:
    project = Project()
    for name, source in [("plain.py", "def f(x):\n    return x\n"), ("holds.py", f"def g():\n    {needed_in_text}\n")]:
        project.add(ModuleInfo.parse(tmp_path / name, source, checked=True))
    fact(project)
    plain, holds = project.modules
    assert not walked_into(plain)
    assert walked_into(holds)


def test_settings_without_path_patterns_resolve_no_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    resolved: list[Path] = []
    monkeypatch.setattr(settings_module, "_relative", lambda path, root: resolved.append(path) or path.as_posix())
    plain = Settings(root=tmp_path)
    assert not plain.is_excluded(tmp_path / "model.py") and plain.is_excluded(tmp_path / "__pycache__")
    assert plain.ignored_in(tmp_path / "model.py") == ()
    assert resolved == []  # asked for every file of the run, it resolved two paths per file
    patterned = Settings(root=tmp_path, exclude=("build",), per_file_ignores={"model.py": ("MS101",)})
    assert patterned.ignored_in(tmp_path / "model.py") == ("MS101",) and not patterned.is_excluded(
        tmp_path / "model.py"
    )
    assert len(resolved) == 2


def test_the_blocks_around_a_node_are_listed_outermost_first() -> None:
    source = """
def f(xs, flag):
    for x in xs:
        if x > flag:
            y = x
        else:
            while y:
                z = y
    else:
        w = 0
    return y
"""
    function = ast.parse(source).body[0]
    loop = function.body[0]  # type: ignore[attr-defined]
    branch = loop.body[0]
    blocks = enclosing_blocks(function)
    inner = branch.orelse[0].body[0]
    assert blocks[id(branch.body[0].value)] == (loop, branch)
    assert blocks[id(inner.targets[0])] == (loop, branch)  # a while loop is no block of the table
    assert blocks[id(branch.test)] == (loop,)
    assert id(loop.orelse[0]) not in blocks and id(loop.iter) not in blocks


def test_the_globals_of_a_graph_function_are_found_once_per_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assignments = "".join(f"        y{i} = x + {i}\n" for i in range(200))
    path = tmp_path / "net.py"
    path.write_text(
        "from mindspore import nn\n\nG = 0\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        f"        global G\n{assignments}        G = x\n        return x\n"
    )
    walked: list[ast.AST] = []

    def counted(node: ast.AST) -> list[ast.AST]:
        walked.append(node)
        return statements(node)

    monkeypatch.setattr(binder, "statements", counted)
    findings = check_files([path], Settings(root=tmp_path)).diagnostics
    assert any(f.symbol == "python-side-effect-in-graph" and "global `G`" in f.message for f in findings)
    assert sum(isinstance(node, ast.FunctionDef) and node.name == "construct" for node in walked) <= 2


class _CountedText(str):
    """A module's text that counts the substring tests made on it."""

    searches: ClassVar[int] = 0

    def __contains__(self, part: object) -> bool:
        _CountedText.searches += 1
        return super().__contains__(part)  # type: ignore[operator]


@pytest.mark.parametrize("cells", [50, 200])
def test_the_text_of_a_module_is_searched_per_module_not_per_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cells: int
) -> None:
    """A substring test reads the whole text: made per function, it makes a file of many small
    Cells quadratic (5 MB of them: 9 s became 55 s)."""
    parse = ModuleInfo.parse.__func__  # type: ignore[attr-defined]

    def counted(cls: type[ModuleInfo], path: Path, source: str, *, checked: bool, **options: Any) -> ModuleInfo:
        module: ModuleInfo = parse(cls, path, source, checked=checked, **options)
        module.text = _CountedText(module.text)
        return module

    monkeypatch.setattr(ModuleInfo, "parse", classmethod(counted))
    cell = "class Net{0}(nn.Cell):\n    def construct(self, x):\n        y = x + {0}\n        return y\n\n\n"
    path = tmp_path / "cells.py"
    path.write_text("from mindspore import nn\n\n\n" + "".join(cell.format(i) for i in range(cells)))
    _CountedText.searches = 0
    check_files([path], Settings(root=tmp_path))
    assert 0 < _CountedText.searches < 50


def _zoo(tmp_path: Path, projects: int) -> list[Path]:
    for i in range(projects):
        (tmp_path / f"project{i}" / "src").mkdir(parents=True)
        (tmp_path / f"project{i}" / "src" / "utils.py").write_text("def relu(x):\n    return x\n")
        (tmp_path / f"project{i}" / "train.py").write_text("from src.utils import relu\n")
    return sorted(tmp_path.rglob("*.py"))


def test_a_serial_run_analyses_one_component_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its memory is that of the largest project of a zoo, not of the zoo. Its components share
    what the run learns of the file system, and the next run learns it again."""
    paths = _zoo(tmp_path, 3)
    analysed: list[list[str]] = []
    file_facts: list[object] = []
    check = incremental.check_files

    def spied(files: list[Path], settings: Settings, **options: Any) -> Report:
        analysed.append(sorted(str(f.relative_to(tmp_path)) for f in files))
        file_facts.append(options["file_facts"])
        return check(files, settings, **options)

    monkeypatch.setattr(incremental, "check_files", spied)
    check_incrementally(paths, Settings(root=tmp_path), None)
    assert analysed == [[f"project{i}/src/utils.py", f"project{i}/train.py"] for i in range(3)]
    check_incrementally(paths, Settings(root=tmp_path), None)
    assert [id(f) for f in file_facts[:3]] == [id(file_facts[0])] * 3
    assert file_facts[3] is not file_facts[0]


def test_the_same_file_in_packages_of_other_names_has_its_own_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its relative imports name other modules: the split must not reuse the first one's (the
    analysis would find the missed import and analyse the component again)."""
    for package in ("models", "src"):
        folder = tmp_path / package / package
        folder.mkdir(parents=True)
        (folder / "__init__.py").write_text("")
        (folder / "detr.py").write_text("from .transformer import build\n")
        (folder / "transformer.py").write_text(f"def build():\n    return {package!r}\n")
    splits: list[int] = []
    analyse = incremental._analyse

    def spied(components: list[list[RunFile]], settings: Settings, jobs: int) -> list[Report]:
        splits.append(len(components))
        return analyse(components, settings, jobs)

    monkeypatch.setattr(incremental, "_analyse", spied)
    check_incrementally(sorted(tmp_path.rglob("*.py")), Settings(root=tmp_path), None)
    assert splits == [2]


def test_an_import_no_module_of_the_run_can_be_looks_in_no_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``import numpy`` deep in a tree: no module of the run is called ``numpy``, so no folder
    above the importer is searched for one (each was, up to the file system's root)."""
    from mslint.model import project as project_module

    deep = tmp_path / "a" / "b" / "c" / "d" / "e"
    project = Project()
    importer = ModuleInfo.parse(deep / "train.py", "import numpy\n", checked=True)
    helper = ModuleInfo.parse(tmp_path / "a" / "helpers.py", "", checked=True)
    for module in (importer, helper):
        project.add(module)
    asked: list[str] = []
    counted = project_module.module_files
    monkeypatch.setattr(project_module, "module_files", lambda name, root: asked.append(name) or counted(name, root))
    assert project.module_named("numpy", importer) is None
    assert asked == []
    assert project.module_named("helpers", importer) is helper  # a module of the run still is found above


def test_the_modules_naming_a_word_are_indexed_once_each_as_modules_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked again after each module the analysis loads, the index of the words each module names
    reads each module once (it read every module again after each load: quadratic in a run that
    loads its modules one by one); what it answered before a load stays as it was."""
    from mslint.model import registries

    read: list[str] = []
    pattern = registries._IDENTIFIER

    class CountingPattern:
        def findall(self, text: str) -> list[str]:
            read.append(text)
            return pattern.findall(text)

    monkeypatch.setattr(registries, "_IDENTIFIER", CountingPattern())
    project = Project()
    answers = []
    for i in range(20):
        project.add(ModuleInfo.parse(tmp_path / f"m{i}.py", f"Block = {i}\n", checked=True))
        answers.append(registries.modules_naming(project, "Block"))
    assert len(read) == 20
    assert [len(answer) for answer in answers] == list(range(1, 21))
