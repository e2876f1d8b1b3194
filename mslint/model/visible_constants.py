"""The module constants a module's code reads by name: its own (``MODE = "fast"``), those its
top level imports by name from a module of the project (``from settings import MODE``), and
those it reads as fields of a project module it imports (``args.rgbd``: :func:`module_attribute_constant`).

An imported name counts where the module binds it by that one import alone: no other import, no
assignment at its top level, no ``global`` statement (:func:`~mslint.model.folds.module_constants`
holds the module it comes from to the same rule).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
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
    bound = _binding_counts(module)
    found: dict[str, object] = {}
    for statement in imports:
        for name, qualname in import_bindings(statement, module.package).items():
            source_name, _, attribute = qualname.rpartition(".")
            source = project.module_named(source_name, module) if bound.get(name) == 1 and source_name else None
            constants = {} if source is None or source is module else module_constants(source.tree)
            if attribute in constants:
                found[name] = constants[attribute]
    return found


def imported_binding(project: Project, module: ModuleInfo, name: str) -> tuple[ModuleInfo, str] | None:
    """The project module and the name in it that ``module``'s top level imports as ``name`` (``from
    src.config import cfg``), where that one import alone binds ``name`` in ``module``; None otherwise."""
    qualname = module.imports.get(name)
    if qualname is None or _binding_counts(module).get(name) != 1:
        return None
    source_name, _, attribute = qualname.rpartition(".")
    source = project.module_named(source_name, module) if source_name else None
    return None if source is None or source is module else (source, attribute)


def module_attribute_constant(project: Project, module: ModuleInfo, expr: ast.expr) -> object:
    """The literal ``expr`` reads where it is ``name.CONSTANT`` and ``name`` a project module that
    ``module``'s top level imports by that name alone (``from run import args``, then
    ``args.rgbd`` where ``args.py`` says ``rgbd = True``), never written as a field anywhere in
    the project (``args.rgbd = False``, ``setattr(args, ...)``); NOT_KNOWN otherwise. Whether the
    function that reads it binds ``name`` itself is the caller's to ask."""
    if not (isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and isinstance(expr.ctx, ast.Load)):
        return NOT_KNOWN
    source = _imported_modules(project, module).get(expr.value.id)
    if source is None:
        return NOT_KNOWN
    constants = module_constants(source.tree)
    if expr.attr not in constants or _written(project, source, expr.attr):
        return NOT_KNOWN
    return constants[expr.attr]


def _imported_modules(project: Project, module: ModuleInfo) -> dict[str, ModuleInfo]:
    """The project modules ``module``'s top level imports, by the name that one import alone binds."""
    bound = _binding_counts(module)
    found = {}
    for statement in module.tree.body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            for name, qualname in import_bindings(statement, module.package).items():
                source = project.module_named(qualname, module) if bound.get(name) == 1 else None
                if source is not None and source is not module:
                    found[name] = source
    return found


def _written(project: Project, source: ModuleInfo, attribute: str) -> bool:
    """Whether a module of the project writes ``attribute`` of a name it binds to ``source`` by an
    import, or hands such a name to ``setattr``."""
    for module in list(project.modules):
        if attribute not in module.text and "setattr" not in module.text:
            continue
        names = {name for name, found in _imported_modules(project, module).items() if found is source}
        for node in descendants(module.tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr == attribute
                and not isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id in names
            ):
                return True
            target = node.args[0] if isinstance(node, ast.Call) and _is_setattr(node) else None
            if isinstance(target, ast.Name) and target.id in names:
                return True
    return False


def _is_setattr(node: ast.AST) -> bool:
    called = node.func if isinstance(node, ast.Call) and node.args else None
    return isinstance(called, ast.Name) and called.id == "setattr"


_BOUND: NodeMemo[ast.Module, dict[str, int]] = NodeMemo()


def _binding_counts(module: ModuleInfo) -> dict[str, int]:
    """How often the module binds each name (2 for any name a ``global`` statement or an assignment
    binds); memoized by module: each read of an imported module's field asks."""
    return _BOUND(module.tree, lambda _: _count_bindings(module))


def _count_bindings(module: ModuleInfo) -> dict[str, int]:
    bound: dict[str, int] = {}
    for node in statements(module.tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                name = (alias.asname or alias.name).partition(".")[0]
                bound[name] = bound.get(name, 0) + 1
        elif isinstance(node, ast.Global):
            bound.update((name, 2) for name in node.names)
    for stored in module.nodes_of(ast.Name):
        if not isinstance(stored.ctx, ast.Load):
            bound[stored.id] = 2
    return bound
