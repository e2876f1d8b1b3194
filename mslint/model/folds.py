"""Which tests on graph constants MindSpore folds, so that the branch it does not take is never
compiled: measured per release in ``mslint/data/folds-<release>.json``
(``scripts/generate_fold_table.py``, :mod:`mslint.fold_table`), applied here and nowhere else.

The compiler folds at two stages. Its parser folds an ``if`` statement on attributes of ``self``
and never reads the branch it skips (an undefined name there compiles: :data:`PARSE`). Its type
inference, specialising each graph on the constants it is given, never evaluates a branch it
skips (a missing attribute there compiles, an undefined name does not: :data:`INFERENCE`). A test
is made of measured forms (``self.flag``, ``not flag``, ``gate is None``, ``n == 1``,
``isinstance(c, int)``, ``a and b``) on constants of measured sources (an attribute of ``self``,
a parameter every call gives a Python value, a module constant); it folds at a stage where the
table says each of its forms on each of its sources does, at that position (``if``, a
conditional expression, ``while``), for every truth measured and at both syntax levels.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from mslint.fold_table import FoldedForms
from mslint.model.memo import NodeMemo
from mslint.model.walk import statements

POSITION_OF = {ast.If: "if", ast.IfExp: "ifexp", ast.While: "while"}
"""The table's position of the statement or expression a test belongs to."""

NOT_FOLDED = object()
"""The value of a test the table does not fold, or whose constants are not known."""

_COMPARISONS: dict[type[ast.cmpop], tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Eq: ("compare-eq", operator.eq),
    ast.NotEq: ("compare-eq", operator.ne),
    ast.Lt: ("compare-lt", operator.lt),
    ast.LtE: ("compare-lt", operator.le),
    ast.Gt: ("compare-lt", operator.gt),
    ast.GtE: ("compare-lt", operator.ge),
}
_TYPES = {"int": int, "float": float, "bool": bool, "str": str}
"""The builtin types an ``isinstance`` test is folded against here."""


class FoldedTest:
    """The value of a test as the compiler folds it at one position and stage, where it does.

    ``source_of`` names the source of a constant the test reads (``self``, ``subcell``, ``input``,
    ``module``), None for anything else; ``constant`` gives its Python value, :data:`NOT_FOLDED`
    where it is not known; ``qualname`` resolves a called name (``builtins.isinstance``)."""

    def __init__(
        self,
        folded: FoldedForms,
        position: str,
        stage: str,
        source_of: Callable[[ast.expr], str | None],
        constant: Callable[[ast.expr], object],
        qualname: Callable[[ast.expr], str | None],
    ) -> None:
        self._folded = folded
        self._key = (position, stage)
        self._source_of = source_of
        self._constant = constant
        self._qualname = qualname
        self._values: dict[int, tuple[object]] = {}
        """By test node: its folded value, evaluated once."""

    def truth(self, test: ast.expr) -> bool | None:
        """The truth the compiler folds ``test`` to; None where it does not fold it."""
        value = self.value(test)
        return None if value is NOT_FOLDED else bool(value)

    def value(self, test: ast.expr) -> object:
        """The Python value the compiler folds ``test`` to, :data:`NOT_FOLDED` where it does not."""
        known = self._values.get(id(test))
        if known is None:
            known = self._values[id(test)] = (self._value(test),)
        return known[0]

    def _value(self, test: ast.expr) -> object:
        if self._source_of(test) is not None:
            return self._constant(test) if self._folds("truth", test) else NOT_FOLDED
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            operand = self.value(test.operand)
            return NOT_FOLDED if operand is NOT_FOLDED or not self._folds("not", test.operand) else not operand
        if isinstance(test, ast.BoolOp):
            return self._boolean(test)[0]
        leaf = self._leaf(test)
        value = NOT_FOLDED if leaf is None else self._constant(leaf[1])
        if leaf is None or value is NOT_FOLDED or not self._folds(leaf[0], leaf[1]):
            return NOT_FOLDED
        try:
            return leaf[2](value)
        except TypeError:  # `None < 2`: the compiler's verdict is not Python's
            return NOT_FOLDED

    def decides(self, boolean: ast.BoolOp) -> int | None:
        """The index of the operand that ends ``boolean`` (an ``and`` false, an ``or`` true), where
        the compiler folds it and those before it, so that the operands after it are never read;
        None otherwise."""
        return self._boolean(boolean)[1]

    def _boolean(self, boolean: ast.BoolOp) -> tuple[object, int | None]:
        """The folded value of ``boolean`` and the index of the operand that decides it, if any:
        Python's, each operand read once, left to right."""
        decided = _operator(boolean) + "-decided"
        last = len(boolean.values) - 1
        for index, operand in enumerate(boolean.values):
            # a constant read where only its deciding and/or is measured (`z = self.flag and ...`)
            alone = index < last and self._source_of(operand) is not None and self._folds(decided, operand)
            value = self._constant(operand) if alone else self.value(operand)
            if value is NOT_FOLDED:
                return NOT_FOLDED, None
            if index < last and bool(value) is isinstance(boolean.op, ast.Or):
                return (value, index) if self._folds(decided, operand) else (NOT_FOLDED, None)
            if not self._folds(_operator(boolean), operand):
                return NOT_FOLDED, None
        return value, None

    def folds(self, test: ast.expr) -> bool:
        """Whether the table folds ``test``'s form here, whatever the values of its constants."""
        if self._source_of(test) is not None:
            return self._folds("truth", test)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.folds(test.operand) and self._folds("not", test.operand)
        if isinstance(test, ast.BoolOp):
            return all(self.folds(o) and self._folds(_operator(test), o) for o in test.values)
        leaf = self._leaf(test)
        return leaf is not None and self._folds(leaf[0], leaf[1])

    def may_decide(self, boolean: ast.BoolOp) -> bool:
        """Whether the table folds ``boolean``'s first operand as one that may end it, whatever
        its value: the operands after it may be left unread."""
        first = boolean.values[0]
        return self.folds(first) and self._folds(_operator(boolean) + "-decided", first)

    def _leaf(self, test: ast.expr) -> tuple[str, ast.expr, Callable[[Any], object]] | None:
        """A comparison of a constant with a literal, or ``isinstance`` of one and a builtin type:
        the table's condition, the constant and what computes the test from its value. ``hasattr``
        is none: on 2.10 the compiler's ``hasattr(1, "real")`` is not Python's (its true rows do
        not fold)."""
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.comparators[0], ast.Constant):
            left, op, right = test.left, test.ops[0], test.comparators[0].value
            if self._source_of(left) is None:
                return None
            if isinstance(op, (ast.Is, ast.IsNot)) and right is None:
                if isinstance(op, ast.Is):
                    return "is-none", left, lambda v: v is None
                return "is-not-none", left, lambda v: v is not None
            if type(op) in _COMPARISONS:
                condition, compare = _COMPARISONS[type(op)]
                return condition, left, lambda v: bool(compare(v, right))
            return None
        if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords:
            tested, kind = test.args
            known = _builtin_type(kind, self._qualname)
            if self._qualname(test.func) == "builtins.isinstance" and known and self._source_of(tested):
                return "isinstance", tested, lambda v: isinstance(v, known)
        return None

    def _folds(self, condition: str, operand: ast.expr) -> bool:
        """Whether the table folds ``condition`` on every constant ``operand`` reads, here."""
        sources = {s for s in map(self._source_of, _atoms(operand, self._source_of)) if s is not None}
        return bool(sources) and all((condition, source, *self._key) in self._folded for source in sources)


def _operator(boolean: ast.BoolOp) -> str:
    return "or" if isinstance(boolean.op, ast.Or) else "and"


def _atoms(test: ast.expr, source_of: Callable[[ast.expr], str | None]) -> list[ast.expr]:
    """The constants ``test`` reads: itself where it is one, else those of its parts."""
    if source_of(test) is not None:
        return [test]
    return [
        atom for child in ast.iter_child_nodes(test) if isinstance(child, ast.expr) for atom in _atoms(child, source_of)
    ]


def _builtin_type(expr: ast.expr, qualname: Callable[[ast.expr], str | None]) -> type | None:
    name = qualname(expr) or ""
    return _TYPES.get(name.removeprefix("builtins.")) if name.startswith("builtins.") else None


_MODULE_CONSTANTS: NodeMemo[ast.Module, dict[str, object]] = NodeMemo()


def module_constants(tree: ast.Module) -> dict[str, object]:
    """The names ``tree`` binds once, at its top level, to a literal scalar (``USE_BN = False``),
    never declared ``global`` nor bound again anywhere at the top level: their values (memoized by
    module)."""
    return _MODULE_CONSTANTS(tree, _module_constants)


def _module_constants(tree: ast.Module) -> dict[str, object]:
    bound: dict[str, list[ast.expr | None]] = {}
    for statement in tree.body:
        for node in ast.walk(statement) if not isinstance(statement, _SCOPES) else ():
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                bound.setdefault(node.id, []).append(None)
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target: ast.expr | None = statement.targets[0]
        else:
            target = statement.target if isinstance(statement, ast.AnnAssign) and statement.value else None
        if isinstance(target, ast.Name) and isinstance(statement, (ast.Assign, ast.AnnAssign)):
            bound[target.id][-1] = statement.value
    declared = {name for node in statements(tree) if isinstance(node, ast.Global) for name in node.names}
    return {
        name: values[0].value
        for name, values in bound.items()
        if len(values) == 1
        and isinstance(values[0], ast.Constant)
        and isinstance(values[0].value, (bool, int, float, str, type(None)))
        and name not in declared
    }


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
