"""A fast, memoized ``ast.walk``: the analysis walks the same functions and classes many times.

``descendants(node)`` is ``node`` and every node under it, in source order (preorder). The
list is computed once and kept as long as the tree (:mod:`mslint.model.memo`);
walking a module or a class also keeps the lists of the classes and functions inside it.
A list holds only the nodes below its node: holding the node itself would keep the tree
alive in the host process (pylint, the language server) for as long as it runs.
Trees are never changed after parsing, which is what makes this safe. The operator and
context nodes (``ast.Add``, ``ast.Load``, ...) are left out: they are shared singletons that
no rule looks for, a quarter of all nodes; rules read them from their parent (``node.ctx``).
"""

from __future__ import annotations

import ast
import bisect
from typing import Any

from mslint.model.memo import NodeMemo

_DESCENDANTS: NodeMemo[ast.AST, list[ast.AST]] = NodeMemo()
_STATEMENTS: NodeMemo[ast.AST, list[ast.stmt]] = NodeMemo()
_OWN: NodeMemo[ast.AST, list[ast.AST]] = NodeMemo()
_BODY_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
"""The fields that hold statements (``handlers`` and ``cases`` hold their holders)."""
_RAISED: NodeMemo[ast.AST, frozenset[int]] = NodeMemo()
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
    below = _DESCENDANTS.get(node)
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
                _DESCENDANTS.put(scope, order[start + 1 :])
                continue
            if not isinstance(node, ast.AST):
                continue
            plan = _plan(node.__class__)
        fields, is_scope = plan
        if is_scope:
            walked = _DESCENDANTS.get(node)
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
    Kept as long as the tree, as ``descendants`` is."""
    cached = _STATEMENTS.get(scope)
    if cached is None:
        cached = []
        open_scopes: list[tuple[ast.AST, int]] = []
        stack: list[Any] = [scope]  # statements, their holders, and the scope-end mark
        while stack:
            node = stack.pop()
            if node is _SCOPE_END:  # what a function or class nested here holds: its own list too
                inner, start = open_scopes.pop()
                _STATEMENTS.put(inner, cached[start:])
                continue
            if isinstance(node, ast.stmt) and node is not scope:
                cached.append(node)
                if isinstance(node, _NESTED_SCOPES):
                    known = _STATEMENTS.get(node)
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
        _STATEMENTS.put(scope, cached)
    return cached


def own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a module or function outside the functions, lambdas and classes nested in it
    (their ``return`` statements and calls belong to them), ``scope`` first. Kept as long as the tree,
    less ``scope`` itself, as ``descendants`` keeps its lists."""
    below = _OWN.get(scope)
    if below is None:
        nested: set[int] = set()
        for node in descendants(scope)[1:]:
            if isinstance(node, _NESTED_SCOPES) and id(node) not in nested:
                nested.update(id(n) for n in descendants(node))
        below = [n for n in descendants(scope)[1:] if id(n) not in nested]
        _OWN.put(scope, below)
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
    return _RAISED(
        function,
        lambda f: frozenset(
            id(inner) for node in statements(f) if isinstance(node, ast.Raise) for inner in descendants(node)
        ),
    )


_PARENTS: NodeMemo[ast.AST, dict[int, ast.AST | None]] = NodeMemo()
_STARTS: NodeMemo[ast.Module, list[int]] = NodeMemo()
_ABSENT = object()


def parent_of(tree: ast.Module, node: ast.AST) -> ast.AST | None:
    """The node of ``tree`` that holds ``node``. Read off a map of the parents below the top-level
    statement whose lines hold ``node``, made once per statement where asked (a run asks about a
    few statements of a module, and mapping all of them cost more than the rest); for a node
    without lines (``ast.arguments``), off one of the whole tree."""
    line = getattr(node, "lineno", None)
    if not isinstance(line, int):
        return _in_map(_PARENTS(tree, _parents), node, tree)
    body = tree.body
    index = bisect.bisect_right(_STARTS(tree, _first_lines), line) - 1
    while index >= 0 and (body[index].end_lineno or line) >= line:  # statements may share a line
        statement = body[index]
        if statement is node:
            return tree
        parent = _in_map(_PARENTS(statement, _parents), node, statement)
        if parent is not None:
            return parent
        index -= 1
    return None


def _in_map(parents: dict[int, ast.AST | None], node: ast.AST, root: ast.AST | None) -> ast.AST | None:
    """``node``'s parent in a map below ``root``, where the children of ``root`` map to None: a
    memoized map holds no reference to its own node, which would keep the tree alive."""
    parent = parents.get(id(node), _ABSENT)
    if parent is _ABSENT:
        return None
    return root if parent is None else parent  # type: ignore[return-value]


def _first_lines(tree: ast.Module) -> list[int]:
    """The first line of each top-level statement (its first decorator's, where it has them)."""
    return [
        min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))])
        for statement in tree.body
    ]


def _parents(root: ast.AST) -> dict[int, ast.AST | None]:
    # The fields the walk follows (:func:`child_fields`), not ``ast.iter_child_nodes``: a third of
    # the calls, and no operator or context singleton, whose one parent would be any of its holders.
    parents: dict[int, ast.AST | None] = {}
    for node in descendants(root):
        holder = None if node is root else node
        for name in child_fields(node):
            value = getattr(node, name, None)
            if value.__class__ is list:
                parents.update((id(child), holder) for child in value if isinstance(child, ast.AST))
            elif isinstance(value, ast.AST):
                parents[id(value)] = holder
    return parents
