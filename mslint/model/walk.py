"""A fast, memoized ``ast.walk``: the analysis walks the same functions and classes many times.

``descendants(node)`` is ``node`` and every node under it, in source order (preorder). The
list is computed once and kept on the node itself, so it lives exactly as long as the tree;
walking a module or a class also keeps the lists of the classes and functions inside it.
Trees are never changed after parsing, which is what makes this safe.
"""

from __future__ import annotations

import ast

_CACHE = "_mslint_descendants"
_RAISED = "_mslint_raised"
_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def descendants(node: ast.AST) -> list[ast.AST]:
    cached: list[ast.AST] | None = node.__dict__.get(_CACHE)
    if cached is None:
        cached = _preorder(node)
    return cached


def _preorder(root: ast.AST) -> list[ast.AST]:
    order: list[ast.AST] = []
    open_scopes: list[tuple[ast.AST, int]] = []
    stack: list[ast.AST | None] = [root]
    while stack:
        node = stack.pop()
        if node is None:  # the end of the scope opened last
            scope, start = open_scopes.pop()
            setattr(scope, _CACHE, order[start:])
            continue
        if isinstance(node, _SCOPES):
            open_scopes.append((node, len(order)))
            stack.append(None)
        order.append(node)
        children: list[ast.AST] = []
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                children.append(value)
            elif isinstance(value, list):
                children.extend(item for item in value if isinstance(item, ast.AST))
        stack.extend(reversed(children))
    if not isinstance(root, _SCOPES):
        return order
    cached: list[ast.AST] = getattr(root, _CACHE)
    return cached


def raised(function: ast.AST) -> frozenset[int]:
    """Ids of the nodes inside ``raise`` statements of ``function``: code that runs only to build
    the exception (MindSpore compiles it only when the ``raise`` is reached)."""
    cached: frozenset[int] | None = function.__dict__.get(_RAISED)
    if cached is None:
        cached = frozenset(
            id(inner) for node in descendants(function) if isinstance(node, ast.Raise) for inner in descendants(node)
        )
        setattr(function, _RAISED, cached)
    return cached
