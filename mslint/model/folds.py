"""Which tests on graph constants MindSpore folds, so that the branch it does not take is never
compiled: measured per release in ``mslint/data/folds-<release>.json``
(``scripts/generate_fold_table.py``, :mod:`mslint.fold_table`), applied here and nowhere else.

The compiler folds at two stages. Its parser folds an ``if`` statement on attributes of ``self``
and never reads the branch it skips (an undefined name there compiles: :data:`PARSE`). Its type
inference, specialising each graph on the constants it is given, never evaluates a branch it
skips (a missing attribute there compiles, an undefined name does not: :data:`INFERENCE`). A test
is made of measured forms (``self.flag``, ``not flag``, ``gate is None``, ``n == 1``,
``isinstance(c, int)``, ``a and b``) on constants of measured sources (an attribute of ``self``,
a parameter every call gives a Python value, a module constant, a number of an input's static
shape); it folds at a stage where the table says each of its forms on each of its sources does,
at that position (``if``, a conditional expression, ``while``), for every truth measured and at
both syntax levels. ``isinstance(v, Tensor)`` also reads, as its source, a value known to be a
tensor (an attribute of ``self``, an input): its rows were measured on one.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Any

from mslint.fold_table import FoldedForms
from mslint.model.binder import top_level_bound_once
from mslint.model.memo import NodeMemo

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
_TENSOR_CLASSES = ("mindspore.Tensor", "mindspore.common.Tensor", "mindspore.common.tensor.Tensor")
"""MindSpore's ``Tensor``, as an ``isinstance`` test names it."""


class FoldedTest:
    """The value of a test as the compiler folds it at one position and stage, where it does.

    ``source_of`` names the source of a constant the test reads (``self``, ``subcell``, ``input``,
    ``module``, ``shape``...), None for anything else; ``constant`` gives its Python value, :data:`NOT_FOLDED`
    where it is not known; ``qualname`` resolves a called name (``builtins.isinstance``);
    ``tensor_source`` names the source of an expression known to hold a tensor (an attribute of
    ``self``, an input), None for anything else."""

    def __init__(
        self,
        folded: FoldedForms,
        position: str,
        stage: str,
        source_of: Callable[[ast.expr], str | None],
        constant: Callable[[ast.expr], object],
        qualname: Callable[[ast.expr], str | None],
        tensor_source: Callable[[ast.expr], str | None] = lambda _: None,
    ) -> None:
        self._folded = folded
        self._key = (position, stage)
        self._source_of = source_of
        self._constant = constant
        self._qualname = qualname
        self._tensor_source = tensor_source
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
            return self._scalar(test) if self._folds("truth", test) else NOT_FOLDED
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            operand = self.value(test.operand)
            return NOT_FOLDED if operand is NOT_FOLDED or not self._folds("not", test.operand) else not operand
        if isinstance(test, ast.BoolOp):
            return self._boolean(test)[0]
        tensor = self._tensor_test(test)
        if tensor is not None:
            return tensor[1] if self._folds("isinstance-tensor", test) else NOT_FOLDED
        leaf = self._leaf(test)
        value = NOT_FOLDED if leaf is None else self._constant(leaf[1])
        conditions = () if leaf is None or value is NOT_FOLDED else leaf[0](value)
        if leaf is None or not conditions or not all(self._folds(c, leaf[1]) for c in conditions):
            return NOT_FOLDED
        try:
            return leaf[2](value)
        except TypeError:  # `None < 2`: the compiler's verdict is not Python's
            return NOT_FOLDED

    def _scalar(self, expr: ast.expr) -> object:
        """The value of the constant ``expr`` where it is a Python scalar, on which the table's truth
        and boolean operators were measured; :data:`NOT_FOLDED` otherwise (a tuple's truth)."""
        value = self._constant(expr)
        return value if isinstance(value, _SCALARS) else NOT_FOLDED

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
            value = self._scalar(operand) if alone else self.value(operand)
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
        if self._tensor_test(test) is not None:
            return self._folds("isinstance-tensor", test)
        leaf = self._leaf(test)
        conditions = () if leaf is None else leaf[0](NOT_FOLDED)
        return leaf is not None and bool(conditions) and all(self._folds(c, leaf[1]) for c in conditions)

    def may_decide(self, boolean: ast.BoolOp) -> bool:
        """Whether the table folds ``boolean``'s first operand as one that may end it, whatever
        its value: the operands after it may be left unread."""
        first = boolean.values[0]
        return self.folds(first) and self._folds(_operator(boolean) + "-decided", first)

    def _leaf(self, test: ast.expr) -> tuple[Conditions, ast.expr, Callable[[Any], object]] | None:
        """A comparison of a constant with literals (``==``, ``<``, chained, ``in`` a literal tuple,
        list, set or dict), of the ``len`` of a constant tuple or list with a literal, or
        ``isinstance`` of one and a builtin type: what gives the table's conditions from the
        constant's value, the constant and what computes the test from its value. ``hasattr`` is
        none: on 2.10 the compiler's ``hasattr(1, "real")`` is not Python's (its true rows do not
        fold)."""
        if isinstance(test, ast.Compare):
            return self._compared(test)
        if isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords:
            tested, kind = test.args
            known = _builtin_type(kind, self._qualname)
            if self._qualname(test.func) == "builtins.isinstance" and known and self._source_of(tested):
                return _scalar_only("isinstance"), tested, lambda v: isinstance(v, known)
        return None

    def _tensor_test(self, test: ast.expr) -> tuple[str | None, object] | None:
        """For ``isinstance(value, Tensor)``: the source of ``value`` and the test's value (true
        where ``value`` holds a tensor, false where it holds a Python scalar, :data:`NOT_FOLDED`
        where neither is known); None for another test."""
        if not (isinstance(test, ast.Call) and len(test.args) == 2 and not test.keywords):
            return None
        tested, kind = test.args
        if self._qualname(test.func) != "builtins.isinstance" or self._qualname(kind) not in _TENSOR_CLASSES:
            return None
        source = self._tensor_source(tested)
        if source is not None:
            return source, True
        source = self._source_of(tested)
        return source, False if source is not None and isinstance(self._constant(tested), _SCALARS) else NOT_FOLDED

    def _compared(self, test: ast.Compare) -> tuple[Conditions, ast.expr, Callable[[Any], object]] | None:
        """:meth:`_leaf` of a comparison: one operand a constant (or the ``len`` of one), the
        others literals."""
        if len(test.ops) == 1 and isinstance(test.ops[0], (ast.In, ast.NotIn)):
            return self._membership(test.ops[0], test.comparators[0], test.left)
        operands = [test.left, *test.comparators]
        read = [i for i, o in enumerate(operands) if not isinstance(o, ast.Constant)]
        if len(read) != 1:
            return None
        at = read[0]
        tested = operands[at]
        measured = _len_argument(tested, self._qualname)
        if measured is not None and self._source_of(tested) == "shape":
            measured = None  # `len(x.shape)`: a number of the shape, as `x.ndim` is
        constant = tested if measured is None else measured
        if self._source_of(constant) is None:
            return None
        if len(test.ops) == 1 and at != 0:
            return None  # measured with the constant on the left (`self.mode == 1`)
        literals = [o.value if isinstance(o, ast.Constant) else None for o in operands]
        if len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot)) and literals[1 - at] is None:
            condition = "is-none" if isinstance(test.ops[0], ast.Is) else "is-not-none"
            return _scalar_only(condition), constant, lambda v: (v is None) is (condition == "is-none")
        if not all(type(op) in _COMPARISONS for op in test.ops):
            return None
        compared = {_COMPARISONS[type(op)][0] for op in test.ops} if len(test.ops) == 1 else {"compare-chain"}

        def compute(value: object) -> bool:
            read = len(value) if measured is not None else value  # type: ignore[arg-type]
            values = [read if i == at else v for i, v in enumerate(literals)]
            return all(_COMPARISONS[type(op)][1](a, b) for op, a, b in zip(test.ops, values, values[1:]))

        return (_length_of if measured is not None else _scalar_only)(*compared), constant, compute

    def _membership(
        self, op: ast.cmpop, container: ast.expr, constant: ast.expr
    ) -> tuple[Conditions, ast.expr, Callable[[Any], object]] | None:
        """:meth:`_leaf` of ``constant in (literals)`` (``not in``; a dict literal's keys)."""
        if self._source_of(constant) is None:
            return None
        if isinstance(container, (ast.Tuple, ast.List, ast.Set)):
            elements, condition = container.elts, "in" if isinstance(op, ast.In) else "not-in"
        elif isinstance(container, ast.Dict) and isinstance(op, ast.In) and None not in container.keys:
            elements, condition = [k for k in container.keys if k is not None], "in-keys"
        else:
            return None
        if not all(isinstance(e, ast.Constant) for e in elements):
            return None
        members = [e.value for e in elements if isinstance(e, ast.Constant)]
        return _scalar_only(condition), constant, lambda v: (v in members) is isinstance(op, ast.In)

    def _folds(self, condition: str, operand: ast.expr) -> bool:
        """Whether the table folds ``condition`` on every constant ``operand`` reads, here."""
        tensor = self._tensor_test(operand)  # `isinstance(x, Tensor)`: of the source of `x`
        atoms = [] if tensor is not None else _atoms(operand, self._source_of)
        sources = {tensor[0]} if tensor is not None else {s for s in map(self._source_of, atoms) if s is not None}
        return bool(sources) and all(s is not None and (condition, s, *self._key) in self._folded for s in sources)


Conditions = Callable[[object], tuple[str, ...]]
"""From the value of the constant a test reads (:data:`NOT_FOLDED` where not known): the table's
conditions that must each fold on it; none where the value is one the table has not measured."""

_SCALARS = (bool, int, float, str, type(None))
"""The values the table's scalar conditions were measured on."""


def _scalar_only(*conditions: str) -> Conditions:
    """The conditions of a test measured on a Python scalar."""
    return lambda value: conditions if value is NOT_FOLDED or isinstance(value, _SCALARS) else ()


class CellItems:
    """What an ``nn.CellList`` or an ``nn.SequentialCell`` holds, as a test reads it: its ``len``."""

    def __init__(self, sequential: bool, count: int) -> None:
        self.sequential = sequential
        self.count = count

    def __len__(self) -> int:
        return self.count


def _length_of(*conditions: str) -> Conditions:
    """The conditions of a comparison of ``len`` of a constant: a tuple's (``len``), a list's
    (``len-list``), a ``CellList``'s (``len-cells``) or a ``SequentialCell``'s (``len-sequential``);
    a string's is ``len-str``, which does not fold (STRICT rejects ``len`` of a string constant)."""

    def of(value: object) -> tuple[str, ...]:
        if isinstance(value, CellItems):
            return ("len-sequential" if value.sequential else "len-cells", *conditions)
        kinds = {tuple: "len", list: "len-list", str: "len-str", type(NOT_FOLDED): "len"}
        kind = kinds.get(type(value))
        return () if kind is None else (kind, *conditions)

    return of


def _len_argument(expr: ast.expr, qualname: Callable[[ast.expr], str | None]) -> ast.expr | None:
    """The argument of ``len(argument)``, None where ``expr`` is no such call."""
    if isinstance(expr, ast.Call) and len(expr.args) == 1 and not expr.keywords:
        return expr.args[0] if qualname(expr.func) == "builtins.len" else None
    return None


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
    """The names ``tree`` binds once, at its top level, to a literal scalar (``USE_BN = False``) or
    a tuple of them (``SIZES = (1, 2)``), never declared ``global`` nor bound again anywhere at the
    top level: their values (memoized by module)."""
    return _MODULE_CONSTANTS(tree, _module_constants)


def _module_constants(tree: ast.Module) -> dict[str, object]:
    return {name: ast.literal_eval(value) for name, value in top_level_bound_once(tree).items() if _literal(value)}


def _literal(expr: ast.expr) -> bool:
    """A literal scalar, or a tuple of them (``SIZES = (1, 2)``: immutable, whose ``len`` folds);
    not a list, which code may change in place before the compile."""
    if isinstance(expr, ast.Tuple):
        return all(_literal(e) and not isinstance(e, ast.Tuple) for e in expr.elts)
    return isinstance(expr, ast.Constant) and isinstance(expr.value, _SCALARS)
