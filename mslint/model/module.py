"""One parsed source file: its module name, imports and top-level definitions."""

from __future__ import annotations

import ast
import builtins
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate
from pathlib import Path
from typing import TypeVar, cast

from mslint.model.memo import NodeMemo
from mslint.model.walk import descendants, statements
from mslint.source import with_newlines

BUILTIN_NAMES = frozenset(dir(builtins))
_IMPORTED: NodeMemo[ast.AST, frozenset[str]] = NodeMemo()
_Node = TypeVar("_Node", bound=ast.AST)
TOO_DEEPLY_NESTED = "too deeply nested to analyse"


@dataclass
class ModuleInfo:
    path: Path
    name: str
    """Dotted module name, from the package folders (those with ``__init__.py``) around the file."""
    root: Path
    """The folder the dotted name is relative to (an import root)."""
    tree: ast.Module
    text: str
    """The whole source, its lines (as Python's parser counts them) joined by ``\\n`` (one string,
    not a list of lines: the line list cost as much again as the text, for every module of the run)."""
    checked: bool
    """False for modules loaded only to resolve names (a base class imported from an unchecked file)."""
    imports: dict[str, str] = field(default_factory=dict)
    """Local name -> qualified name bound by top-level imports, for the names they bind to one module."""
    rebound_imports: set[str] = field(default_factory=set)
    """Names top-level imports bind to different modules (``import torch.nn as nn``, later ``import
    mindspore.nn as nn``): which one a use reads depends on where it runs, so neither is assumed."""
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    assigned: set[str] = field(default_factory=set)
    """Other names bound at top level (assignments), which shadow imports of the same name."""
    star_imports: list[str] = field(default_factory=list)
    """Modules read by top-level ``from ... import *``, absolute names."""
    relative_roots: set[str] = field(default_factory=set)
    """First parts of the names that relative imports (``from .layers import X``) bind: the
    project's own code, even where the run lacks its file (a vendored package left out)."""
    star_bindings: dict[str, str] = field(default_factory=dict)
    """Local name -> qualified name bound by those star imports (filled by the project, which
    reads the other modules)."""

    @classmethod
    def parse(
        cls, path: Path, source: str, *, checked: bool, packages: Packages | None = None, resolved: Path | None = None
    ) -> ModuleInfo:
        """Parse ``source``; raises SyntaxError (or ValueError for NUL bytes) when it is not Python,
        or when it is nested too deeply for Python's parser (which raises RecursionError or
        MemoryError: a few thousand ``+`` terms, a hundred thousand ``-`` signs). ``packages``
        keeps the packages found around each folder, for the next file there; ``resolved`` is
        ``path.resolve()`` where the caller has it already."""
        try:
            tree = ast.parse(source, filename=str(path))
        except (RecursionError, MemoryError):
            raise SyntaxError(TOO_DEEPLY_NESTED) from None
        root, name = resolved_module_name(resolved or path.resolve(), packages)
        text = with_newlines(source)
        module = cls(path, name, root, tree, text.removesuffix("\n"), checked)
        module._index(tree.body)
        for name in module.rebound_imports:
            del module.imports[name]
        return module

    @property
    def package(self) -> str:
        if self.path.name == "__init__.py":
            return self.name
        return self.name.rpartition(".")[0]

    def _index(self, body: list[ast.stmt]) -> None:
        for statement in body:
            if isinstance(statement, ast.ClassDef):
                self.classes[statement.name] = statement
            elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[statement.name] = statement
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                for name, qualname in import_bindings(statement, self.package).items():
                    if self.imports.setdefault(name, qualname) != qualname:
                        self.rebound_imports.add(name)
                if isinstance(statement, ast.ImportFrom) and statement.level:
                    self.relative_roots.add(imported_module(statement, self.package).split(".", 1)[0])
                if isinstance(statement, ast.ImportFrom) and any(a.name == "*" for a in statement.names):
                    self.star_imports.append(imported_module(statement, self.package))
            elif isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                self.assigned.update(name for target in targets for name in bound_names(target))
            elif isinstance(statement, (ast.If, ast.Try, ast.With)):
                for block in _blocks(statement):
                    self._index(block)

    def global_qualname(self, name: str) -> str | None:
        """The qualified name a module-level ``name`` refers to, or None if it is unknown."""
        if name in self.classes or name in self.functions or name in self.assigned:
            return f"{self.name}.{name}"
        if name in self.imports:
            return self.imports[name]
        if name in self.star_bindings:
            return self.star_bindings[name]
        if name in BUILTIN_NAMES:
            return f"builtins.{name}"
        return None

    def top_level_values(self, name: str) -> list[ast.expr]:
        """The values the module's top-level ``name = value`` statements assign, in order."""
        return [
            statement.value
            for statement in self.tree.body
            if isinstance(statement, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in statement.targets)
        ]

    @property
    def source_lines(self) -> list[str]:
        return self.text.split("\n") if self.text else []

    @property
    def line_count(self) -> int:
        """``len(source_lines)``, without splitting the text."""
        return len(self._line_starts) if self.text else 0

    def star_exports(self, imported_as: str) -> dict[str, str]:
        """What ``from <imported_as> import *`` binds, reading this module: the names of a literal
        ``__all__``, else every top-level name not starting with an underscore."""
        defined = {*self.classes, *self.functions, *self.assigned}
        imported = {**self.star_bindings, **self.imports}
        exported = _literal_all(self.tree)
        if exported is None:
            exported = [name for name in [*defined, *imported] if not name.startswith("_")]
        return {
            name: imported[name] if name in imported and name not in defined else f"{imported_as}.{name}"
            for name in exported
        }

    def line(self, lineno: int) -> str:
        starts = self._line_starts
        if not self.text or not 0 < lineno <= len(starts):
            return ""
        end = starts[lineno] - 1 if lineno < len(starts) else len(self.text)
        return self.text[starts[lineno - 1] : end]

    def source_segment(self, node: ast.expr) -> str | None:
        """The text of ``node`` as written, as :func:`ast.get_source_segment` gives it, read off the
        line starts the module keeps (that function splits the whole text again at each call)."""
        if node.end_lineno is None or node.end_col_offset is None:
            return None
        first, last = node.lineno, node.end_lineno
        head = self.line(first).encode()  # the column offsets count UTF-8 bytes
        if first == last:
            return head[node.col_offset : node.end_col_offset].decode()
        middle = self.text[self._line_starts[first] : self._line_starts[last - 1]]  # whole lines, ends included
        tail = self.line(last).encode()[: node.end_col_offset].decode()
        return head[node.col_offset :].decode() + "\n" + middle + tail

    @cached_property
    def _nodes_by_type(self) -> dict[type[ast.AST], list[ast.AST]]:
        found: dict[type[ast.AST], list[ast.AST]] = {}
        for node in descendants(self.tree):
            nodes = found.get(node.__class__)
            if nodes is None:
                nodes = found[node.__class__] = []
            nodes.append(node)
        return found

    def nodes_of(self, node_type: type[_Node]) -> list[_Node]:
        """The module's nodes of one type, in source order: one walk of the module serves every
        analysis that looks for one kind of node (its calls, assignments, attribute stores)."""
        return cast(list[_Node], self._nodes_by_type.get(node_type, []))

    @cached_property
    def calls_by_name(self) -> dict[str, list[ast.Call]]:
        """The module's calls by the name they call: ``f`` of ``f(...)`` and of ``a.f(...)``."""
        found: dict[str, list[ast.Call]] = {}
        for node in self.nodes_of(ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name is not None:
                found.setdefault(name, []).append(node)
        return found

    def top_level_class_at(self, line: int) -> ast.ClassDef | None:
        """The class of the module's top level whose lines hold ``line``."""
        for statement in self.tree.body:
            if isinstance(statement, ast.ClassDef) and statement.lineno <= line <= (
                statement.end_lineno or statement.lineno
            ):
                return statement
        return None

    def scopes_holding(self, lines: list[int]) -> list[ast.Module | ast.FunctionDef | ast.AsyncFunctionDef]:
        """The module, or the innermost function, whose own code holds each of ``lines``."""
        starts, functions = self._functions_by_line
        found: dict[int, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for line in lines:
            scope: ast.Module | ast.FunctionDef | ast.AsyncFunctionDef = self.tree
            # Functions nest: of those starting at or before the line, the last one that still
            # holds it is the innermost (no two start on one line).
            for index in range(bisect_right(starts, line) - 1, -1, -1):
                if line <= (functions[index].end_lineno or functions[index].lineno):
                    scope = functions[index]
                    break
            found[id(scope)] = scope
        return list(found.values())

    @cached_property
    def _functions_by_line(self) -> tuple[list[int], list[ast.FunctionDef | ast.AsyncFunctionDef]]:
        """The module's functions at any depth, ordered by the line they start on, and those lines."""
        functions = sorted(
            (n for n in statements(self.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))),
            key=lambda f: f.lineno,
        )
        return [f.lineno for f in functions], functions

    @cached_property
    def _line_starts(self) -> array[int]:
        """Where each line starts in the text (summed in C: a loop per line costs more than the rest of ``line``)."""
        lines = self.text.split("\n")[:-1]  # each line ended by a newline, which starts the next one
        return array("q", accumulate(map((1).__add__, map(len, lines)), initial=0))


def _literal_all(tree: ast.Module) -> list[str] | None:
    """The names of a top-level ``__all__ = [...]`` (and ``+=``) written as string literals."""
    names: list[str] | None = None
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AugAssign)):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                continue
            if not isinstance(statement.value, (ast.List, ast.Tuple)):
                return None
            literal = [
                e.value for e in statement.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
            names = [*(names or []), *literal] if isinstance(statement, ast.AugAssign) else literal
    return names


def _blocks(statement: ast.If | ast.Try | ast.With) -> list[list[ast.stmt]]:
    if isinstance(statement, ast.If):
        return [statement.body, statement.orelse]
    if isinstance(statement, ast.With):
        return [statement.body]
    return [statement.body, statement.orelse, statement.finalbody, *[h.body for h in statement.handlers]]


def import_bindings(statement: ast.Import | ast.ImportFrom, package: str) -> dict[str, str]:
    """Local names bound by an import statement, mapped to qualified names."""
    bindings = {}
    if isinstance(statement, ast.Import):
        for alias in statement.names:
            if alias.asname:
                bindings[alias.asname] = alias.name
            else:
                head = alias.name.split(".", 1)[0]
                bindings[head] = head
        return bindings
    base = imported_module(statement, package)
    for alias in statement.names:
        if alias.name != "*":
            bindings[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
    return bindings


def imports_in(node: ast.AST, package: str) -> dict[str, str]:
    """Names bound by the import statements anywhere under ``node`` (a function's, or a whole
    module's: training scripts often import inside ``main()``)."""
    bindings: dict[str, str] = {}
    for statement in statements(node):
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            bindings.update(import_bindings(statement, package))
    return bindings


def imported_names(module: ModuleInfo) -> frozenset[str]:
    """Dotted names of everything the module imports, at any depth (memoized by tree)."""
    cached = _IMPORTED.get(module.tree)
    if cached is None:
        names: set[str] = set()
        for node in statements(module.tree):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):  # the module too: `from .random import *` binds no name
                names.update([imported_module(node, module.package), *import_bindings(node, module.package).values()])
        cached = frozenset(names)
        _IMPORTED.put(module.tree, cached)
    return cached


def none_test(test: ast.expr) -> tuple[str, bool] | None:
    """``(name, True)`` for the test ``name is None``, ``(name, False)`` for ``name is not None``;
    None for any other test."""
    if not (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], (ast.Is, ast.IsNot))
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    ):
        return None
    return test.left.id, isinstance(test.ops[0], ast.Is)


def passed_argument(call: ast.Call, position: int | None, keyword: str) -> ast.expr | None:
    """The expression a call passes by ``keyword`` or at ``position``, as written (a literal
    ``None`` included); None when absent."""
    value = next((k.value for k in call.keywords if k.arg == keyword), None)
    if value is None and position is not None and position < len(call.args):
        value = call.args[position]
    return value


def call_argument(call: ast.Call, position: int | None, keyword: str) -> ast.expr | None:
    """The argument a call passes by ``keyword`` or at ``position``; None when absent, ``None``,
    or hidden in ``*args``."""
    value = passed_argument(call, position, keyword)
    if isinstance(value, ast.Starred) or (isinstance(value, ast.Constant) and value.value is None):
        return None
    return value


def imported_module(statement: ast.ImportFrom, package: str) -> str:
    """The absolute name of the module a ``from ... import`` reads (relative levels resolved)."""
    base = statement.module or ""
    if statement.level:
        parts = package.split(".") if package else []
        parents = parts[: len(parts) - (statement.level - 1)] if statement.level > 1 else parts
        base = ".".join([*parents, *([base] if base else [])])
    return base


def bound_names(target: ast.expr) -> list[str]:
    """Names bound by an assignment target (``a``, ``a, (b, *c)``)."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for element in target.elts for name in bound_names(element)]
    if isinstance(target, ast.Starred):
        return bound_names(target.value)
    return []


def is_self_attribute(node: ast.AST, self_name: str | None) -> bool:
    """Whether ``node`` is ``self.<attribute>``, ``self_name`` being the method's first parameter."""
    return (
        self_name is not None
        and isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == self_name
    )


Packages = dict[Path, tuple[Path, tuple[str, ...]]]
"""A folder -> its import root and the package names from there (one run's files share folders)."""


def module_name_for(path: Path, packages: Packages | None = None) -> tuple[Path, str]:
    """The import root and dotted module name of a file, from the packages around it; ``packages``
    keeps what is found for each folder, for the next file of the folder."""
    return resolved_module_name(path.resolve(), packages)


def resolved_module_name(path: Path, packages: Packages | None = None) -> tuple[Path, str]:
    """:func:`module_name_for` of a path resolved already (a run resolves each of its files once)."""
    known = packages.get(path.parent) if packages is not None else None
    if known is None:
        names: list[str] = []
        folder = path.parent
        while (folder / "__init__.py").is_file() and folder.parent != folder:
            names.insert(0, folder.name)
            folder = folder.parent
        known = (folder, tuple(names))
        if packages is not None:
            packages[path.parent] = known
    root, package = known
    parts = package if path.name == "__init__.py" else (*package, path.stem)
    return root, ".".join(parts) or path.parent.name
