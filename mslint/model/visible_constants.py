"""The module constants a module's code reads by name: its own (``MODE = "fast"``), and those its
top level imports by name from a module of the project (``from settings import MODE``).

An imported name counts where the module binds it by that one import alone: no other import, no
assignment at its top level, no ``global`` statement (:func:`~mslint.model.folds.module_constants`
holds the module it comes from to the same rule).
"""

from __future__ import annotations

import ast

from mslint.model.folds import module_constants
from mslint.model.memo import NodeMemo
from mslint.model.module import ModuleInfo, import_bindings
from mslint.model.project import Project
from mslint.model.walk import descendants, statements

_VISIBLE: NodeMemo[ast.Module, dict[str, object]] = NodeMemo()


def visible_constants(project: Project, module: ModuleInfo) -> dict[str, object]:
    """The value of each module constant ``module``'s code may read by name (memoized by module)."""
    cached = _VISIBLE.get(module.tree)
    if cached is None:
        cached = {**_imported_constants(project, module), **module_constants(module.tree)}
        _VISIBLE.put(module.tree, cached)
    return cached


def _imported_constants(project: Project, module: ModuleInfo) -> dict[str, object]:
    imports = [s for s in module.tree.body if isinstance(s, ast.ImportFrom)]
    if not imports:
        return {}
    bound: dict[str, int] = {}
    for node in statements(module.tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).partition(".")[0]
                bound[name] = bound.get(name, 0) + 1
        elif isinstance(node, ast.Global):
            bound.update((name, 2) for name in node.names)
    for stored in descendants(module.tree):
        if isinstance(stored, ast.Name) and not isinstance(stored.ctx, ast.Load):
            bound[stored.id] = 2
    found: dict[str, object] = {}
    for statement in imports:
        for name, qualname in import_bindings(statement, module.package).items():
            source_name, _, attribute = qualname.rpartition(".")
            source = project.module_named(source_name, module) if bound.get(name) == 1 and source_name else None
            constants = {} if source is None or source is module else module_constants(source.tree)
            if attribute in constants:
                found[name] = constants[attribute]
    return found
