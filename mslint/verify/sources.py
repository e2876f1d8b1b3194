"""The user's statements behind a compiler location: which statement and function span a line,
and which earlier lines bound the names it reads.

The compiler names lines, not values: these let the verifier tie a line the compiler reported
to the line that produced the value it was about.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

from mslint.model.module import bound_names
from mslint.source import read_source, source_text, split_lines


def function_at(path: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body spans ``line``."""
    found = _innermost(_spans(str(Path(path).resolve()), _FUNCTIONS), line)
    return cast("ast.FunctionDef | ast.AsyncFunctionDef | None", found)


def definition_at(path: str, line: int) -> tuple[int, int] | None:
    """The first and last line of the top-level class or function spanning ``line``."""
    tree = _parsed(str(Path(path).resolve()))
    for node in tree.body if tree else ():
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if first <= line <= (node.end_lineno or node.lineno):
                return first, node.end_lineno or node.lineno
    return None


def statement_at(path: str, line: int) -> ast.stmt | None:
    """The innermost statement spanning ``line``."""
    return _innermost(_spans(path, ast.stmt), line)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)

Span = tuple[int, int, ast.stmt]


@lru_cache(maxsize=128)
def _spans(path: str, kinds: type[ast.stmt] | tuple[type[ast.stmt], ...]) -> tuple[Span, ...]:
    """The first line, last line and node of each statement of ``kinds`` in the file, from the
    shortest: the verifier asks for the innermost at many lines of one file (every problem
    against every finding), and walking the tree for each made that quadratic."""
    tree = _parsed(path)
    found = [
        (node.lineno, node.end_lineno or node.lineno, node)
        for node in (ast.walk(tree) if tree else ())
        if isinstance(node, kinds)
    ]
    return tuple(sorted(found, key=lambda span: span[1] - span[0]))


def _innermost(spans: tuple[Span, ...], line: int) -> ast.stmt | None:
    return next((node for first, last, node in spans if first <= line <= last), None)


def assigned_targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    return []


def binding_lines(path: str, line: int) -> list[int]:
    """For each name the statement at ``line`` reads, the line of the function's last assignment
    to it before that statement."""
    statement, function = statement_at(path, line), function_at(path, line)
    if statement is None or function is None:
        return []
    read = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    last: dict[str, int] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.stmt) and node.lineno < statement.lineno:
            for name in (n for target in assigned_targets(node) for n in bound_names(target)):
                if name in read:
                    last[name] = max(last.get(name, 0), node.lineno)
    return sorted(set(last.values()))


def function_defined_at(path: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function whose definition starts on ``line`` (its ``def`` or first decorator): where a
    code object's ``co_firstlineno`` points."""
    tree = _parsed(str(Path(path).resolve()))
    return next(
        (
            node
            for node in (ast.walk(tree) if tree else ())
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and min([node.lineno, *(d.lineno for d in node.decorator_list)]) == line
        ),
        None,
    )


# Methods of Python's lists, dicts and sets that change the container in place.
_MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "clear",
        "update",
        "setdefault",
        "add",
        "discard",
        "sort",
        "reverse",
        "__setitem__",
        "__delitem__",
    }
)


@dataclass(frozen=True)
class Write:
    """A statement of a function that changes the value ``root`` or ``root.attribute`` names."""

    root: str
    """The name the changed expression starts from: ``self`` in ``self.items.append(x)``."""
    attribute: str | None
    """The attribute of ``root`` that is changed or holds what is changed (``items``), if any."""
    line: int
    rebinds_root: bool
    """Whether the statement binds the name ``root`` itself (``calls += 1``), which changes a
    module global only where the function declares it ``global``."""


def writes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[Write]:
    """Assignments, augmented assignments, subscript and attribute stores, ``del`` and calls of
    mutating methods (``.append``, ``.update``, ``.pop``, ...) in ``function``, in line order."""
    found = []
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING_METHODS:
            changed, in_place = [node.func.value], True
        else:
            targets = node.targets if isinstance(node, ast.Delete) else assigned_targets(node)
            changed, in_place = [e for target in targets for e in _unpacked(target)], False
        for expression in changed:
            write = _write_to(expression, getattr(node, "lineno", 0), in_place)
            if write is not None:
                found.append(write)
    return sorted(found, key=lambda write: write.line)


def _unpacked(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, (ast.Tuple, ast.List)):
        return [e for element in target.elts for e in _unpacked(element)]
    if isinstance(target, ast.Starred):
        return _unpacked(target.value)
    return [target]


def _write_to(expression: ast.expr, line: int, in_place: bool) -> Write | None:
    """The root name and first attribute of a changed expression (``self.stats["k"]``: ``self``, ``stats``)."""
    chain = [expression]
    while isinstance(chain[-1], (ast.Attribute, ast.Subscript)):
        chain.append(chain[-1].value)
    root = chain[-1]
    if not isinstance(root, ast.Name):
        return None
    below_root = chain[-2] if len(chain) > 1 else None
    attribute = below_root.attr if isinstance(below_root, ast.Attribute) else None
    return Write(root.id, attribute, line, rebinds_root=len(chain) == 1 and not in_place)


@lru_cache(maxsize=64)
def _parsed(path: str) -> ast.Module | None:
    try:
        return ast.parse(source_text(Path(path)))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


@lru_cache(maxsize=64)
def line_count(path: str) -> int | None:
    """How many lines the file has, as Python numbers them; None when it cannot be read."""
    try:
        return len(split_lines(read_source(Path(path)).written))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
