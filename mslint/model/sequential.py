"""The items of an ``nn.SequentialCell`` (or of an ``nn.CellList``), in the order it calls them.

``nn.SequentialCell([Body(), Head()])`` called on ``x`` runs ``Head()(Body()(x))``: each item is
given what the one before it returned, the first what the SequentialCell is called with. The
items are the calls that build them, read from the forms real code writes: a list or tuple
literal, the Cells given one by one or spread from a list (``nn.SequentialCell(*layers)``), and
an ``OrderedDict`` of named Cells (a list of pairs or a dict literal). A list named there is
followed where ``__init__`` binds it once to a literal and grows it only by ``append`` calls
outside loops and branches (a loop repeats an item an unknown number of times). Anything else
gives no order: the items are then not chained.

An ``nn.SequentialCell`` of a comprehension (``nn.SequentialCell(*[Block(dim) for _ in
range(depth)])``, or of a list bound once to one, or of an empty list that one loop appends
``Block(dim)`` to) holds one Cell built an unknown number of times:
:func:`repeated_item` names the call that builds it, each item given what the one before returned.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from mslint.model.project import is_mindspore_name
from mslint.model.walk import descendants

QualName = Callable[[ast.expr], "str | None"]

_ORDERED_DICT = ("collections.OrderedDict", "builtins.dict")


def sequential_items(value: ast.expr, scope: ast.AST, qualname: QualName) -> list[ast.Call] | None:
    """The calls that build the items of ``value`` when it is ``nn.SequentialCell(...)`` or
    ``nn.CellList(...)``, in order; None where it is something else or the order is not known.
    ``scope`` is the function that builds it (where a list it is given is bound)."""
    if not isinstance(value, ast.Call) or value.keywords:
        return None
    if not is_mindspore_name(qualname(value.func), "SequentialCell", "CellList"):
        return None
    if len(value.args) == 1 and not isinstance(value.args[0], ast.Starred):
        return _items(value.args[0], scope, qualname)  # a list, a tuple, an OrderedDict
    found: list[ast.Call] = []
    for argument in value.args:
        items = _items(argument.value, scope, qualname) if isinstance(argument, ast.Starred) else _cell(argument)
        if items is None:
            return None
        found += items
    return found


def _cell(expr: ast.expr) -> list[ast.Call] | None:
    return [expr] if isinstance(expr, ast.Call) else None


def _items(expr: ast.expr, scope: ast.AST, qualname: QualName) -> list[ast.Call] | None:
    if isinstance(expr, (ast.List, ast.Tuple)):
        return _each(expr.elts)
    if isinstance(expr, ast.Dict) and None not in expr.keys:
        return _each(expr.values)
    if isinstance(expr, ast.Call) and qualname(expr.func) in _ORDERED_DICT and len(expr.args) == 1:
        pairs = expr.args[0]
        if isinstance(pairs, ast.Dict):
            return _items(pairs, scope, qualname)
        if isinstance(pairs, (ast.List, ast.Tuple)) and all(
            isinstance(p, ast.Tuple) and len(p.elts) == 2 for p in pairs.elts
        ):
            return _each([p.elts[1] for p in pairs.elts if isinstance(p, ast.Tuple)])
        return None
    if isinstance(expr, ast.Name):
        return _grown_list(expr.id, scope)
    return None


def _each(exprs: list[ast.expr]) -> list[ast.Call] | None:
    calls = [e for e in exprs if isinstance(e, ast.Call)]
    return calls if len(calls) == len(exprs) else None


def _grown_list(name: str, scope: ast.AST) -> list[ast.Call] | None:
    """``layers = [A()]`` then ``layers.append(B())`` in the statements of ``scope`` itself."""
    body = getattr(scope, "body", None)
    if not isinstance(body, list):
        return None
    found: list[ast.Call] | None = None
    for statement in body:
        if isinstance(statement, ast.Assign) and any(_is(t, name) for t in statement.targets):
            if found is not None or len(statement.targets) != 1 or not isinstance(statement.value, ast.List):
                return None
            found = _each(statement.value.elts)
            if found is None:
                return None
        elif _appended(statement, name) is not None and found is not None:
            appended = _appended(statement, name)
            if not isinstance(appended, ast.Call):
                return None
            found.append(appended)
        elif any(_is(n, name) for n in descendants(statement) if isinstance(n, ast.Name)) and not _reads_only(
            statement, name
        ):
            return None  # grown, rebound or handed on where the order is not followed
    return found


def _is(expr: ast.expr, name: str) -> bool:
    return isinstance(expr, ast.Name) and expr.id == name


def _appended(statement: ast.stmt, name: str) -> ast.expr | None:
    """The item ``name.append(item)`` adds, where ``statement`` is that call alone."""
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    call = statement.value
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "append" and _is(func.value, name) and len(call.args) == 1:
        return call.args[0]
    return None


def _reads_only(statement: ast.stmt, name: str) -> bool:
    """Whether ``statement`` only gives the list to ``nn.SequentialCell`` (or reads its length):
    it neither grows nor rebinds it."""
    if isinstance(statement, (ast.For, ast.While, ast.If, ast.With, ast.Try)):
        return False
    for node in descendants(statement):
        if isinstance(node, ast.Attribute) and _is(node.value, name):
            return False  # `layers.append`, `layers.extend`, `layers.insert` ...
        if isinstance(node, ast.Subscript) and _is(node.value, name) and isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load):
            return False  # `layers += [...]`
    return True


def repeated_item(value: ast.expr, scope: ast.AST, qualname: QualName) -> ast.Call | None:
    """The call that builds every item of ``value`` where it is ``nn.SequentialCell(...)`` of a
    comprehension of one call, with no condition, given or spread (module doc); None otherwise.
    ``scope`` is the function that builds it (where a list it is given is bound)."""
    if not isinstance(value, ast.Call) or value.keywords or len(value.args) != 1:
        return None
    if not is_mindspore_name(qualname(value.func), "SequentialCell"):
        return None
    argument = value.args[0].value if isinstance(value.args[0], ast.Starred) else value.args[0]
    if isinstance(argument, ast.Name):
        return _repeated_in(argument.id, scope)
    return _comprehension_item(argument)


def _comprehension_item(expr: ast.expr | None) -> ast.Call | None:
    """The call of ``[Block() for _ in ...]``: one generator, no condition."""
    if not isinstance(expr, (ast.ListComp, ast.GeneratorExp)) or not isinstance(expr.elt, ast.Call):
        return None
    return expr.elt if len(expr.generators) == 1 and not expr.generators[0].ifs else None


def _repeated_in(name: str, scope: ast.AST) -> ast.Call | None:
    """The call that builds every item of the list ``name`` in the statements of ``scope``
    itself: ``name = [Block() for _ in ...]``, or ``name = []`` then a ``for`` loop whose one
    statement is ``name.append(Block())``; no other statement there does more than read it."""
    body = getattr(scope, "body", None)
    if not isinstance(body, list):
        return None
    bound: ast.expr | None = None
    appended: ast.expr | None = None
    for statement in body:
        if isinstance(statement, ast.Assign) and [_is(t, name) for t in statement.targets] == [True]:
            if bound is not None:
                return None
            bound = statement.value
        elif not any(_is(n, name) for n in descendants(statement) if isinstance(n, ast.Name)):
            continue
        elif isinstance(statement, ast.For) and len(statement.body) == 1 and not statement.orelse:
            item = _appended(statement.body[0], name)
            if appended is not None or item is None:
                return None
            appended = item
        elif not _reads_only(statement, name):
            return None
    if appended is None:
        return _comprehension_item(bound)
    empty = isinstance(bound, ast.List) and not bound.elts
    return appended if empty and isinstance(appended, ast.Call) else None
