"""Tables of literals at a module's top level, read by a literal key (``EfficientFormer_depth =
{"l1": [3, 2, 6, 4], ...}`` then ``EfficientFormer(layers=EfficientFormer_depth["l1"])``): the
configurations of a model zoo's variants, whose items are the sizes an instance is built with.

A table is known only where nothing in its module can change it or see it changed: the name is
bound once, at the top level, to a dict literal of literals, never declared ``global``, and every
other reading of it in the module reads one item by a literal key (never stores into it, calls
its methods or hands it on).
"""

from __future__ import annotations

import ast

from mslint.model.abstract import NOT_KNOWN
from mslint.model.binder import literal_value
from mslint.model.memo import NodeMemo

_TABLES: NodeMemo[ast.Module, dict[str, dict[object, object]]] = NodeMemo()


def module_tables(tree: ast.Module) -> dict[str, dict[object, object]]:
    """The tables of ``tree`` (module doc), by name (memoized by module)."""
    return _TABLES(tree, _module_tables)


def _module_tables(tree: ast.Module) -> dict[str, dict[object, object]]:
    candidates: dict[str, ast.Assign] = {}
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Dict)
        ):
            candidates[statement.targets[0].id] = statement
    unkeyed = _names_not_read_by_key(tree)
    tables: dict[str, dict[object, object]] = {}
    for name, assignment in candidates.items():
        table = literal_value(assignment.value)
        if isinstance(table, dict) and unkeyed.get(name) == [assignment.targets[0]]:
            tables[name] = table
    return tables


def _names_not_read_by_key(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """By name: every occurrence in ``tree`` other than a read of one item by a literal key
    (``global`` declarations included), in one walk of the module for all its tables."""
    nodes = list(ast.walk(tree))
    read_by_key = {
        id(node.value)
        for node in nodes
        if isinstance(node, ast.Subscript)
        and isinstance(node.ctx, ast.Load)
        and isinstance(node.value, ast.Name)
        and literal_value(node.slice) is not NOT_KNOWN
    }
    unkeyed: dict[str, list[ast.AST]] = {}
    for node in nodes:
        if isinstance(node, ast.Global):
            for name in node.names:
                unkeyed.setdefault(name, []).append(node)
        elif isinstance(node, ast.Name) and id(node) not in read_by_key:
            unkeyed.setdefault(node.id, []).append(node)
    return unkeyed
