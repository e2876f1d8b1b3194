"""Cells that only PyNative code builds, found by following the names that lead to them.

A module that a PyNative program imports is often imported by other code too: a package's
``__init__.py`` re-exports its classes, and every graph-mode script that imports the package
runs that ``__init__.py``. Importing a class runs none of its code; only the code that names it
does. So a Cell of such a module runs only in PyNative mode where every place in the run that
names it, outside its own class, is one of:

* an import or the module's ``__all__`` (a re-export binds the name, it builds nothing; an
  ``import ... as`` alias is followed under its new name);
* code of a module that only PyNative programs run (:mod:`mslint.model.pynative`);
* a function or method of the project whose own name leads, by the same test, only to such code
  (mindarmour's ``ShadowModelLoss`` is built by ``ShadowModelAttack.train_shadow_model``, which
  only the PyNative ``cifar_shadow_attack.py`` calls).

Anything else keeps the Cell graph code: a name read at a module's top level (import time, a
registry, a subclass's decorator), a decorated function (``@jit``, a registry, a command line's
``@app.command``), a ``test*`` function (pytest runs it unnamed), a name nothing reads (a Cell no
program builds is judged as graph code; a function no code calls may be an entry point), a module
that names ``jit``, a string equal to the name outside ``__all__`` (``getattr(module, name)``), or
more names to follow than :data:`_MOST_NAMES`. Methods are followed by their attribute name
wherever it is read, so a common one (``apply``) is read in graph code somewhere and ends the
search. ``__init__``, ``construct``, ``__call__`` and the other special methods run when their
class is built or called, and a base class may call any method of its subclass (MindSpore's
``Model.train`` calls ``_build_train_network``, which mindarmour's ``DPModel`` overrides to build
its train step): for those, and for every method of a class with a base, the class's name is
followed instead.
"""

from __future__ import annotations

import ast
import bisect
from collections import defaultdict
from collections.abc import Callable
from typing import NamedTuple

from mslint.model.module import ModuleInfo
from mslint.model.project import FunctionNode

_MOST_NAMES = 16
"""More names than this between a Cell and the code that builds it: the search gives up."""


class _Mention(NamedTuple):
    """A place that names a class or function: its module and the top-level function or method
    holding it, the class whose bases name it (a subclass), or ``None`` for code that runs when
    the module is imported (its top level, a class body, decorators, default values);
    ``binding`` for an import or an ``__all__`` entry, ``alias`` for the name an import binds."""

    module: ModuleInfo
    scope: ast.AST | None
    binding: bool
    alias: str | None = None


class _Mentions:
    """The places of the run that name each name, found where asked: only the modules whose text
    holds the name are read, each once (most of a run never holds the names followed)."""

    def __init__(self, modules: list[ModuleInfo]) -> None:
        self._modules = modules
        self._by_module: dict[int, dict[str, list[_Named]]] = {}
        self._by_name: dict[str, list[_Mention]] = {}
        self._first_lines: dict[int, list[int]] = {}

    def of(self, name: str) -> list[_Mention]:
        found = self._by_name.get(name)
        if found is None:
            found = self._by_name[name] = [
                self._mention(module, named)
                for module in self._modules
                if name in module.text
                for named in self._names_in(module).get(name, [])
            ]
        return found

    def _mention(self, module: ModuleInfo, named: _Named) -> _Mention:
        if named.alias is not None:
            return _Mention(module, None, True, named.alias or None)
        starts = self._first_lines.get(id(module))
        if starts is None:
            starts = self._first_lines[id(module)] = [_first_line(s) for s in module.tree.body]
        index = bisect.bisect_right(starts, named.line) - 1
        statement = module.tree.body[index] if index >= 0 else None
        if isinstance(named.node, ast.Constant) and statement is not None and _is_all(statement):
            return _Mention(module, None, True)
        return _Mention(module, _scope(statement, named.line), False)

    def _names_in(self, module: ModuleInfo) -> dict[str, list[_Named]]:
        found = self._by_module.get(id(module))
        if found is None:
            found = self._by_module[id(module)] = _names(module)
        return found


class _Named(NamedTuple):
    """A node that names something: a variable, an attribute, a string, or an import's alias."""

    node: ast.AST
    line: int
    alias: str | None = None


def cells_only_pynative_code_names(
    modules: list[ModuleInfo],
    cells: list[ast.ClassDef],
    pynative: set[int],
    uses_jit: Callable[[ModuleInfo], bool],
) -> frozenset[int]:
    """The class nodes of ``cells`` that only code of the ``pynative`` modules (their ids)
    names, through the functions of ``modules`` (the run) that lead to it; ``uses_jit`` tells a
    module that may compile what it builds."""
    if not cells:
        return frozenset()
    mentions = _Mentions(modules)
    return frozenset(id(cell) for cell in cells if _only_pynative_code_names(cell, mentions, pynative, uses_jit))


def _only_pynative_code_names(
    cell: ast.ClassDef,
    mentions: _Mentions,
    pynative: set[int],
    uses_jit: Callable[[ModuleInfo], bool],
) -> bool:
    own = {id(cell)} | {id(n) for n in cell.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    followed = {cell.name}
    waiting = [cell.name]
    while waiting:
        name = waiting.pop()
        found = mentions.of(name)
        readers = [m for m in found if not m.binding and id(m.scope) not in own and not _defines(m.scope, name)]
        if not readers and not any(m.alias for m in found):
            return False  # run by nothing, or by what mslint cannot see (pytest, an entry point)
        for mention in found:
            if mention.binding:
                if mention.alias and mention.alias not in followed:
                    followed.add(mention.alias)
                    waiting.append(mention.alias)
                continue
            if id(mention.scope) in own or id(mention.module) in pynative:
                continue
            leads_to = _name_to_follow(mention, uses_jit)
            if leads_to is None:
                return False
            if leads_to not in followed:
                followed.add(leads_to)
                waiting.append(leads_to)
                if len(followed) > _MOST_NAMES:
                    return False
    return True


def _name_to_follow(mention: _Mention, uses_jit: Callable[[ModuleInfo], bool]) -> str | None:
    """The name whose readers decide whether the code holding ``mention`` runs in graph mode, or
    ``None`` where it may whatever they are (the module's top level, ``@jit``, ``jit`` nearby)."""
    scope = mention.scope
    if scope is None or uses_jit(mention.module):
        return None
    if isinstance(scope, ast.ClassDef):
        return scope.name
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if scope.decorator_list or scope.name.startswith("test"):
            return None  # run by what it is handed to (``@jit``, a registry, a command line) or by pytest
        owner = _owner_class(mention.module, scope)
        if owner is not None and (owner.bases or scope.name.startswith("__") or scope.name == "construct"):
            return owner.name  # a base class (MindSpore's ``Model``) may call the method unseen
        return scope.name
    return None


def _defines(scope: ast.AST | None, name: str) -> bool:
    """Whether ``scope`` is the definition of ``name`` (a function reading its own name recurses)."""
    return isinstance(scope, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and scope.name == name


def _owner_class(module: ModuleInfo, function: FunctionNode) -> ast.ClassDef | None:
    return next(
        (s for s in module.tree.body if isinstance(s, ast.ClassDef) and any(f is function for f in s.body)), None
    )


def _names(module: ModuleInfo) -> dict[str, list[_Named]]:
    """The nodes of the module that name something, by the name (off the module's own lists of
    nodes by type: no walk)."""
    found: dict[str, list[_Named]] = defaultdict(list)
    for name in module.nodes_of(ast.Name):
        found[name.id].append(_Named(name, name.lineno))
    for attribute in module.nodes_of(ast.Attribute):
        found[attribute.attr].append(_Named(attribute, attribute.lineno))
    for constant in module.nodes_of(ast.Constant):
        if isinstance(constant.value, str) and constant.value.isidentifier():
            found[constant.value].append(_Named(constant, constant.lineno))
    imports: list[ast.Import | ast.ImportFrom] = [*module.nodes_of(ast.Import), *module.nodes_of(ast.ImportFrom)]
    for statement in imports:
        for alias in statement.names:
            bound = alias.asname if alias.asname and alias.asname != alias.name else None
            found[alias.name.rpartition(".")[2]].append(_Named(alias, statement.lineno, bound or ""))
    return found


def _scope(statement: ast.stmt | None, line: int) -> ast.AST | None:
    """The function or method whose body holds ``line``, the class whose bases do, or ``None``
    where the line runs when the module is imported."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return statement if line >= statement.body[0].lineno else None  # decorators, defaults: at import
    if not isinstance(statement, ast.ClassDef) or line < statement.lineno:
        return None
    if line < statement.body[0].lineno:
        return statement  # a base of a subclass
    starts = [_first_line(s) for s in statement.body]
    part = statement.body[bisect.bisect_right(starts, line) - 1]
    if isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef)) and line >= part.body[0].lineno:
        return part
    return None  # the class body runs when the class is made


def _first_line(statement: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _is_all(statement: ast.stmt) -> bool:
    """Whether the statement binds or extends ``__all__``, whose strings name what a star import takes."""
    targets = (
        statement.targets
        if isinstance(statement, ast.Assign)
        else [statement.target]
        if isinstance(statement, (ast.AugAssign, ast.AnnAssign))
        else []
    )
    return any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)
