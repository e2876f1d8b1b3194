"""The user's statements behind a compiler location: which statement and function span a line,
and which earlier lines bound the names it reads.

The compiler names lines, not values: these let the verifier tie a line the compiler reported
to the line that produced the value it was about.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

from mslint.model.module import bound_names
from mslint.source import source_text


def function_at(path: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The innermost function whose body spans ``line``."""
    tree = _parsed(str(Path(path).resolve()))
    spanning = [
        node
        for node in (ast.walk(tree) if tree else ())
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    return min(spanning, key=lambda n: (n.end_lineno or n.lineno) - n.lineno, default=None)


def statement_at(path: str, line: int) -> ast.stmt | None:
    """The innermost statement spanning ``line``."""
    tree = _parsed(path)
    spanning = (
        [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno)
        ]
        if tree
        else []
    )
    return min(spanning, key=lambda n: (n.end_lineno or n.lineno) - n.lineno, default=None)


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


@lru_cache(maxsize=64)
def _parsed(path: str) -> ast.Module | None:
    try:
        return ast.parse(source_text(Path(path)))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
