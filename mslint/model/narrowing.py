"""Where code has tested a value's type: ``if isinstance(t, DTensor): t.to_local()``.

Inside such a test the value is an instance of the class tested, whatever mslint inferred it to
be otherwise: a subclass of Tensor from another library has attributes MindSpore's Tensor lacks.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from mslint.model.memo import NodeMemo
from mslint.model.project import FunctionNode
from mslint.model.walk import descendants

_TESTED: NodeMemo[ast.AST, dict[int, frozenset[str]]] = NodeMemo()


def type_tested(function: FunctionNode) -> dict[int, frozenset[str]]:
    """By node: the expressions (as source text) whose type an enclosing test has checked: the
    body of an ``if``, ``while`` or conditional expression whose test calls ``isinstance`` or
    ``hasattr`` on them, and the operands of ``and``/``or`` after such a call."""
    cached = _TESTED.get(function)
    if cached is not None:
        return cached
    found: dict[int, set[str]] = {}

    def mark(nodes: Sequence[ast.AST], subjects: set[str]) -> None:
        for node in nodes:
            for inner in ast.walk(node):
                found.setdefault(id(inner), set()).update(subjects)

    for node in descendants(function):
        for block in _blocks(node):  # `if not isinstance(t, DTensor): return t`, then the rest
            for index, statement in enumerate(block):
                if isinstance(statement, ast.If) and _ends(statement.body) and _subjects(statement.test):
                    mark(block[index + 1 :], _subjects(statement.test))
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            subjects = _subjects(node.test)
            if subjects:
                mark(node.body if isinstance(node.body, list) else [node.body], subjects)
        elif isinstance(node, ast.BoolOp):
            subjects = set()
            for operand in node.values:
                if subjects:
                    mark([operand], subjects)
                subjects |= _subjects(operand)
    result = {key: frozenset(value) for key, value in found.items()}
    _TESTED.put(function, result)
    return result


_HOLDERS = (ast.stmt, ast.excepthandler, *([ast.match_case] if hasattr(ast, "match_case") else []))
"""The nodes that can hold blocks of statements: no expression does."""


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    if not isinstance(node, _HOLDERS):
        return []
    return [
        value
        for field in ("body", "orelse", "finalbody")
        for value in [getattr(node, field, None)]
        if isinstance(value, list) and value and isinstance(value[0], ast.stmt)
    ]


def _ends(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def tested(expr: ast.expr, node: ast.AST, function: FunctionNode) -> bool:
    """Whether a test encloses ``node`` that checks the type of ``expr`` or of a value it is an
    attribute of (``t.layout`` under ``isinstance(t, DTensor)``)."""
    subjects = type_tested(function).get(id(node))
    if not subjects:
        return False
    text = ast.unparse(expr)
    return any(text == subject or text.startswith(subject + ".") for subject in subjects)


def _subjects(test: ast.expr) -> set[str]:
    return {
        ast.unparse(call.args[0])
        for call in ast.walk(test)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id in ("isinstance", "hasattr")
        and len(call.args) == 2
    }
