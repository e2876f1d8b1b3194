"""A fast, memoized ``ast.walk``: the analysis walks the same functions and classes many times.

``descendants(node)`` is ``node`` and every node under it, in source order (preorder). The
list is computed once and kept on the node itself, so it lives exactly as long as the tree;
walking a module or a class also keeps the lists of the classes and functions inside it.
A node keeps only the nodes below it: keeping itself would make every tree a reference
cycle, left for the garbage collector of the host process (pylint, the language server).
Trees are never changed after parsing, which is what makes this safe. The operator and
context nodes (``ast.Add``, ``ast.Load``, ...) are left out: they are shared singletons that
no rule looks for, a quarter of all nodes; rules read them from their parent (``node.ctx``).
"""

from __future__ import annotations

import ast
from typing import Any

_CACHE = "_mslint_descendants"
_STATEMENTS = "_mslint_statements"
_OWN = "_mslint_own_nodes"
_BODY_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
"""The fields that hold statements (``handlers`` and ``cases`` hold their holders)."""
_RAISED = "_mslint_raised"
_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_NESTED_SCOPES = _SCOPES[1:]
_SINGLETON_FIELDS = frozenset({"ctx", "op", "ops"})
_SCALAR_FIELDS = frozenset(
    {"name", "id", "arg", "attr", "module", "asname", "kind", "type_comment", "level", "conversion", "is_async"}
    | {"simple", "tag", "rest"}
)
"""Fields that hold names, numbers or flags, never a node: not pushed to be looked at."""
_SCALAR_FIELDS_OF = {"Constant": frozenset({"value"}), "MatchSingleton": frozenset({"value"})}
_NODE_FIELDS_OF = {"TypeAlias": frozenset({"name"})}
"""Where a field of a name listed above holds a node after all (``type X = ...``: a ``Name``)."""
_SCOPE_END = object()
_PLANS: dict[type[ast.AST], tuple[tuple[str, ...], bool]] = {}


def descendants(node: ast.AST) -> list[ast.AST]:
    below: list[ast.AST] | None = node.__dict__.get(_CACHE)
    if below is None:
        return _preorder(node)
    return [node, *below]


def _preorder(root: ast.AST) -> list[ast.AST]:
    # The hottest loop of a run: one dict lookup per node says what to do with it; what is
    # neither a node nor a list (None, a string in ``Global.names``) is dropped when popped.
    order: list[ast.AST] = []
    open_scopes: list[tuple[ast.AST, int]] = []
    stack: list[Any] = [root]  # nodes, the scope-end mark, and what fields hold besides nodes
    push, extend, visit = stack.append, stack.extend, order.append
    while stack:
        node = stack.pop()
        plan = _PLANS.get(node.__class__)
        if plan is None:
            if node is _SCOPE_END:
                scope, start = open_scopes.pop()
                setattr(scope, _CACHE, order[start + 1 :])
                continue
            if not isinstance(node, ast.AST):
                continue
            plan = _plan(node.__class__)
        fields, is_scope = plan
        if is_scope:
            walked: list[ast.AST] | None = node.__dict__.get(_CACHE)
            if walked is not None:  # a function or class walked before its module: reused, not walked again
                visit(node)
                order.extend(walked)
                continue
            open_scopes.append((node, len(order)))
            push(_SCOPE_END)
        visit(node)
        for name in fields:  # pushed last to first: popped in source order
            value = getattr(node, name, None)
            if value.__class__ is list:
                extend(reversed(value))
            elif value is not None:
                push(value)
    return order


def _plan(node_type: type[ast.AST]) -> tuple[tuple[str, ...], bool]:
    name = node_type.__name__
    skipped = (_SINGLETON_FIELDS | _SCALAR_FIELDS | _SCALAR_FIELDS_OF.get(name, frozenset())) - _NODE_FIELDS_OF.get(
        name, frozenset()
    )
    fields = tuple(field for field in reversed(node_type._fields) if field not in skipped)
    plan = _PLANS[node_type] = (fields, issubclass(node_type, _SCOPES))
    return plan


def child_fields(node: ast.AST) -> tuple[str, ...]:
    """The fields of ``node`` that can hold nodes, last to first: less the operator and context
    singletons and the fields of names and numbers (``ast.iter_fields`` gives every field)."""
    plan = _PLANS.get(type(node))
    return (plan or _plan(type(node)))[0]


def statements(scope: ast.AST) -> list[ast.stmt]:
    """The statements under ``scope`` at any depth (in nested functions and classes too), in
    source order: what ``descendants`` gives less the expressions, which hold no statement.
    Finding the classes, functions or imports of a module this way skips nine nodes in ten.
    Kept on the node, as ``descendants`` is."""
    cached: list[ast.stmt] | None = scope.__dict__.get(_STATEMENTS)
    if cached is None:
        cached = []
        open_scopes: list[tuple[ast.AST, int]] = []
        stack: list[Any] = [scope]  # statements, their holders, and the scope-end mark
        while stack:
            node = stack.pop()
            if node is _SCOPE_END:  # what a function or class nested here holds: its own list too
                inner, start = open_scopes.pop()
                setattr(inner, _STATEMENTS, cached[start:])
                continue
            if isinstance(node, ast.stmt) and node is not scope:
                cached.append(node)
                if isinstance(node, _NESTED_SCOPES):
                    known: list[ast.stmt] | None = node.__dict__.get(_STATEMENTS)
                    if known is not None:  # asked before the scope around it: reused, not walked again
                        cached.extend(known)
                        continue
                    open_scopes.append((node, len(cached)))
                    stack.append(_SCOPE_END)
            for name in reversed(node._fields):  # pushed last to first: popped in source order
                if name in _BODY_FIELDS:
                    value = getattr(node, name, None)
                    if isinstance(value, list):
                        stack.extend(reversed(value))
        setattr(scope, _STATEMENTS, cached)
    return cached


def own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a module or function outside the functions, lambdas and classes nested in it
    (their ``return`` statements and calls belong to them), ``scope`` first. Kept on the node,
    less ``scope`` itself, as ``descendants`` keeps its lists."""
    below: list[ast.AST] | None = scope.__dict__.get(_OWN)
    if below is None:
        nested: set[int] = set()
        for node in descendants(scope)[1:]:
            if isinstance(node, _NESTED_SCOPES) and id(node) not in nested:
                nested.update(id(n) for n in descendants(node))
        below = [n for n in descendants(scope)[1:] if id(n) not in nested]
        setattr(scope, _OWN, below)
    return [scope, *below]


def returned_values(function: ast.AST) -> list[ast.expr]:
    """What the ``return`` statements of ``function`` return (not those of the functions nested in it)."""
    return [n.value for n in own_nodes(function) if isinstance(n, ast.Return) and n.value is not None]


def returned_calls(function: ast.AST) -> list[ast.Call]:
    """The calls ``function`` returns, directly or through a local (``p = Parameter(...)``, ``return p``)."""
    nodes = own_nodes(function)
    assigned = {t.id: n.value for n in nodes if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    values = [assigned.get(v.id) if isinstance(v, ast.Name) else v for v in returned_values(function)]
    return [v for v in values if isinstance(v, ast.Call)]


def raised(function: ast.AST) -> frozenset[int]:
    """Ids of the nodes inside ``raise`` statements of ``function``: code that runs only to build
    the exception (MindSpore compiles it only when the ``raise`` is reached)."""
    cached: frozenset[int] | None = function.__dict__.get(_RAISED)
    if cached is None:
        cached = frozenset(
            id(inner) for node in statements(function) if isinstance(node, ast.Raise) for inner in descendants(node)
        )
        setattr(function, _RAISED, cached)
    return cached
