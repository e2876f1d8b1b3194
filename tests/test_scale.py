"""How the analysis grows with the tree: what a tree of many projects side by side costs must
grow with its lines, not with how many projects repeat the same module names."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import ClassVar

from mslint.model.module import ModuleInfo
from mslint.model.project import Project


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
            source_lines=[],
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
