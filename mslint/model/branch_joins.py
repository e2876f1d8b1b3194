"""The values the branches of a graph `if` join: for each name the branches bind (or the value
both return), its value at the end of each branch, evaluated with the names bound earlier in the
same block (plain assignments, loops over a constant range unrolled). The compiler joins these
values when the `if` ends; a rule decides whether a join can fail."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace

from mslint.model.abstract import AbstractValue, Kind
from mslint.model.module import bound_names
from mslint.model.scope import GraphFunction
from mslint.model.symbolic import Origin, integer
from mslint.model.walk import descendants


@dataclass(frozen=True)
class JoinedValue:
    """The value a plain assignment gives a name, with the expression that gives it; two are the
    same where their expression and origin are (:func:`_after_loop`)."""

    expr: ast.expr
    value: AbstractValue = field(compare=False)
    origin: Origin | None


def joined_value(expr: ast.expr, function: GraphFunction) -> JoinedValue:
    """``expr`` as the function evaluates it: a side of a conditional expression."""
    return JoinedValue(expr, *function.value_and_origin(expr))


@dataclass(frozen=True)
class _Scope:
    """Where values are evaluated: names bound earlier in the same block have the values of
    ``known``; other names the branches re-bind are unknown; any other graph name is a source
    (:class:`~mslint.model.symbolic.ProgramPoint`)."""

    function: GraphFunction
    rebound: frozenset[str]
    known: Mapping[str, JoinedValue | None]
    """None for a name bound otherwise than by a plain assignment: its value is unknown."""

    def knowing(self, known: Mapping[str, JoinedValue | None]) -> _Scope:
        return replace(self, known=dict(known))

    def binding(self, expr: ast.expr) -> JoinedValue:
        """``expr`` evaluated here: the names this scope knows have their values, other graph names
        are sources (:mod:`mslint.model.symbolic`)."""
        evaluator = self.function.evaluator_at(
            values={name: binding.value for name, binding in self.known.items() if binding is not None},
            origins={name: None if binding is None else binding.origin for name, binding in self.known.items()},
            is_source=self._is_source,
        )
        return JoinedValue(expr, evaluator.value(expr), evaluator.origin(expr))

    def _is_source(self, expr: ast.expr) -> bool:
        names = {n.id for n in descendants(expr) if isinstance(n, ast.Name)}
        return self.function.kind(expr) is Kind.GRAPH and not names & self.rebound


def branch_joins(node: ast.If, function: GraphFunction) -> Iterator[tuple[str, JoinedValue, JoinedValue]]:
    """(what, value in the first branch, value in the other) for each value the branches join."""
    rebound = frozenset(n for block in (node.body, node.orelse) for s in block for n in names_bound(s))
    scope = _Scope(function, rebound, {})
    before = _values_before(node, scope)
    first_return = _returned(node.body, scope, before)
    second_return = _returned(node.orelse or _following(node, function), scope, before) if first_return else None
    if first_return is not None and second_return is not None:
        (first, first_scope), (second, second_scope) = first_return, second_return
        pairs = [(first, second)]
        if isinstance(first, ast.Tuple) and isinstance(second, ast.Tuple):
            pairs = list(zip(first.elts, second.elts))
        for a, b in pairs:
            yield "the returned value", first_scope.binding(a), second_scope.binding(b)
        return
    if _ends_flow(node.body) or _ends_flow(node.orelse):
        return
    # a name the other branch leaves has the value it had before the `if`
    body, orelse = _block_values(node.body, scope, before), _block_values(node.orelse, scope, before)
    bound_in_body = {n for s in node.body for n in names_bound(s)}
    for name, value in body.items():
        other = orelse.get(name)
        if name in bound_in_body and value is not None and other is not None and _read_after(name, node, function):
            yield f"`{name}`", value, other


def _returned(
    block: list[ast.stmt], scope: _Scope, before: dict[str, JoinedValue | None]
) -> tuple[ast.expr, _Scope] | None:
    """The value ``block`` ends by returning, with the names bound before it."""
    last = block[-1] if block else None
    if not isinstance(last, ast.Return) or last.value is None:
        return None
    return last.value, scope.knowing(_block_values(block[:-1], scope, before))


def _enclosing_block(node: ast.stmt, function: GraphFunction) -> list[ast.stmt]:
    for parent in descendants(function.node):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(parent, name, None)
            if isinstance(block, list) and node in block:
                return block
    return []


def _following(node: ast.If, function: GraphFunction) -> list[ast.stmt]:
    """The statements after ``node`` in its block: the other branch of an ``if`` that returns."""
    block = _enclosing_block(node, function)
    return block[block.index(node) + 1 :][:1] if block else []


def _values_before(node: ast.If, scope: _Scope) -> dict[str, JoinedValue | None]:
    """The value each name has just before ``node``, where a plain assignment of its own block gives it."""
    block = _enclosing_block(node, scope.function)
    return _block_values(block[: block.index(node)], scope) if block else {}


def _ends_flow(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _block_values(
    block: list[ast.stmt], scope: _Scope, start: Mapping[str, JoinedValue | None] | None = None
) -> dict[str, JoinedValue | None]:
    """The value each name has at the end of ``block`` (from ``start``): a plain ``name = value``
    gives its value, a `for` over a constant range the value it leaves; None for a name bound
    otherwise (unknown)."""
    values = dict(start or {})
    for statement in block:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
        ):
            values[statement.targets[0].id] = scope.knowing(values).binding(statement.value)
            continue
        looped = _after_loop(statement, scope, values) if isinstance(statement, ast.For) else {}
        values.update({name: looped.get(name) for name in names_bound(statement)})
    return values


def _after_loop(loop: ast.For, scope: _Scope, before: dict[str, JoinedValue | None]) -> dict[str, JoinedValue | None]:
    """The values a loop over a constant range leaves: its body evaluated twice, a name whose value
    the second pass changes again (``ops.stack`` of itself) unknown; one it keeps (a concat of
    itself, larger than the value before the loop) known."""
    if loop.orelse or not _runs(loop, scope.function):
        return {}
    once = _block_values(loop.body, scope, {**before, **dict.fromkeys(bound_names(loop.target))})
    twice = _block_values(loop.body, scope, once)
    return {name: binding for name, binding in once.items() if twice.get(name) == binding}


def _runs(loop: ast.For, function: GraphFunction) -> bool:
    """A `for` over a literal range or display that is not empty: unrolled, its body runs."""
    iterated = loop.iter
    if isinstance(iterated, (ast.Tuple, ast.List)):
        return bool(iterated.elts) and not any(isinstance(e, ast.Starred) for e in iterated.elts)
    if not (isinstance(iterated, ast.Call) and function.qualname(iterated.func) == "builtins.range"):
        return False
    bounds = [integer(a) for a in iterated.args]
    if iterated.keywords or not 1 <= len(bounds) <= 3 or any(b is None for b in bounds):
        return False
    return len(range(*(b for b in bounds if b is not None))) > 0


def names_bound(statement: ast.stmt) -> set[str]:
    """The names ``statement`` and the blocks it holds bind by assignment or as loop targets."""
    names: set[str] = set()
    for node in descendants(statement):
        if isinstance(node, ast.Assign):
            names.update(n for target in node.targets for n in bound_names(target))
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            names.update(bound_names(node.target))
    return names


def _read_after(name: str, node: ast.If, function: GraphFunction) -> bool:
    end = node.end_lineno or node.lineno
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) and n.lineno > end
        for n in descendants(function.node)
    )
