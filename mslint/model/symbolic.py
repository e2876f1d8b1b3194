"""Symbolic facts of values at one program point: how a value's shape and dtype relate to a graph value's.

The abstract values of :mod:`mslint.model.abstract` say what a value is where the code shows it
(a tensor of rank 4, a Python int). Where the rank of an input is unknown, what can still be
known is *relational*: ``x[0]`` has one dimension fewer than ``x``, ``x[0:1]`` is smaller than
``x`` on an axis, ``ops.concat((y, x))`` is larger, ``x.astype(ms.int32)`` has a known dtype while
``x * 2`` keeps the dtype of ``x``. An :class:`Origin` states that, relative to a *source*: a graph
value named in the code (``x``, ``self.w``) that nothing more is known of.

Origins are followed flow-sensitively, at one :class:`ProgramPoint` (the values names have just
before an ``if``, at the end of one of its branches): :class:`~mslint.model.values.ValueEvaluator`
computes them beside the abstract values when it is given one. A value without an origin is one
these facts do not follow. The origin of a Python literal (a number, ``None``) is :data:`LITERAL`:
its abstract value says what it is.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from mslint.model.abstract import AbstractScalar, AbstractValue, Kind
from mslint.model.dtypes import dtype_named
from mslint.model.memo import NodeMemo
from mslint.model.project import is_mindspore_name
from mslint.model.walk import descendants

SAME, LARGER, SMALLER = "same", "larger", "smaller"

# Reductions that return one tensor (`max`, `min` and `std` return tuples in some of their forms).
_REDUCTIONS = frozenset({"sum", "mean", "prod", "amax", "amin", "any", "all"})
_KEEPDIMS = ("keepdims", "keep_dims", "keepdim")
_AXIS = ("axis", "dim")
_CREATORS = frozenset({"zeros", "ones", "full", "empty"})
_LIKE = frozenset({"zeros_like", "ones_like"})
_UNSQUEEZE = frozenset({"unsqueeze", "expand_dims"})
_CASTS = frozenset({"astype", "to", "cast"})
# Joins of tensors of one rank along an axis they have, and stacks along a new axis.
CONCATS = frozenset({"concat", "cat", "hstack"})
STACKS = frozenset({"stack"})


@dataclass(frozen=True)
class Origin:
    """What a value is known to be relative to its source."""

    source: str | None = None
    """The graph value it derives from, as the code names it (``x``, ``self.w``); None for a value
    of its own (``ops.zeros((2, 3))``, a Python literal)."""
    rank: int | None = None
    """Its rank minus the rank of ``source``, or its rank where there is no source; None when unknown."""
    dims: tuple[int, ...] | None = None
    """Its dimensions, where a literal shape gives them (no source)."""
    extent: str | None = None
    """How its shape compares with that of ``source`` where the ranks agree: :data:`SAME`,
    :data:`LARGER` (``source`` concatenated with more), :data:`SMALLER` (a constant slice that
    leaves part of an axis out); None when unknown."""
    dtype: str | None = None
    """The dtype it was cast to or created with; "" for that of ``source``; None when unknown."""
    item: Origin | None = None
    """For a list, tuple or dict of the rows of a tensor (``list(x)``, ``[r * 2 for r in x]``):
    the origin of each item."""


LITERAL = Origin()
"""The origin of a Python literal: a value of its own, which its abstract value describes."""


def source(text: str) -> Origin:
    """The origin of a graph value relative to itself."""
    return Origin(text, rank=0, extent=SAME, dtype="")


def is_number(value: AbstractValue, origin: Origin | None) -> bool:
    """A Python number literal (or one computed from literals)."""
    return _own_scalar(value, origin) and isinstance(value, AbstractScalar) and value.type in ("int", "float", "bool")


def is_none(value: AbstractValue, origin: Origin | None) -> bool:
    return _own_scalar(value, origin) and isinstance(value, AbstractScalar) and value.type == "None"


def is_graph(value: AbstractValue, origin: Origin | None) -> bool:
    """A tensor (or a graph value of the source's type), not a Python literal or a container of rows."""
    return origin is not None and origin.item is None and not _own_scalar(value, origin)


def _own_scalar(value: AbstractValue, origin: Origin | None) -> bool:
    return origin is not None and origin.source is None and origin.item is None and isinstance(value, AbstractScalar)


@dataclass(frozen=True)
class ProgramPoint:
    """Where values are followed flow-sensitively: the names bound there, and the rest of the function."""

    values: Mapping[str, AbstractValue]
    """The abstract values of the names that plain assignments before the point bind."""
    origins: Mapping[str, Origin | None]
    """The origins of the names the point knows the binding of: those of ``values``, and None for
    a name bound otherwise (a loop, an unpacking: not followed)."""
    outer: Callable[[ast.expr], AbstractValue]
    """The value of any other name (or ``self.x``) read there: the function's, flow-insensitive."""
    is_source: Callable[[ast.expr], bool]
    """Whether such a name (or ``self.x``) is a source: a graph value other values relate to."""


class Evaluation(Protocol):
    """What the origins of an expression are computed from: the values and origins of its parts."""

    qualname: Callable[[ast.expr], str | None]

    def value(self, expr: ast.expr | None) -> AbstractValue: ...

    def origin(self, expr: ast.expr) -> Origin | None: ...


def derived(expr: ast.expr, evaluation: Evaluation) -> Origin | None:
    """The origin of ``expr`` (neither a name nor ``self.x``) from the origins of its parts."""
    if isinstance(expr, ast.Constant):
        return LITERAL if expr.value is None or isinstance(expr.value, (int, float)) else None
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, (ast.USub, ast.UAdd)):
        return evaluation.origin(expr.operand)
    if isinstance(expr, ast.Subscript):
        return _indexed(expr, evaluation)
    if isinstance(expr, ast.BinOp):
        return _scaled(expr, evaluation)
    if isinstance(expr, ast.Call):
        return _called(expr, evaluation)
    if isinstance(expr, (ast.ListComp, ast.DictComp)):
        return _comprehension(expr, evaluation)
    return None


def row(value: AbstractValue, origin: Origin | None) -> Origin | None:
    """The origin of an item of a value when iterated: a row of a tensor (one dimension fewer)."""
    if origin is None or is_number(value, origin) or is_none(value, origin):
        return None
    if origin.item is not None:
        return origin.item
    if origin.rank is None:
        return None
    return replace(origin, rank=origin.rank - 1, dims=None, extent=None)


_ROW_READS: NodeMemo[ast.AST, dict[int, ast.expr]] = NodeMemo()


def row_reads(function: ast.AST) -> dict[int, ast.expr]:
    """The reads of the target of a one-generator list or dict comprehension in its element, each
    mapped to what gives it its value: the iterable (``r`` in ``[r * 2 for r in x]``), or for
    ``enumerate`` the enumerated iterable and, for the count, the ``enumerate`` call itself (whose
    rows are not followed). Memoized, as :func:`~mslint.model.binder.loop_items` are."""
    cached = _ROW_READS.get(function)
    if cached is not None:
        return cached
    found: dict[int, ast.expr] = {}
    for node in descendants(function):
        if not isinstance(node, (ast.ListComp, ast.DictComp)) or len(node.generators) != 1:
            continue
        generator = node.generators[0]
        iterated, target = generator.iter, generator.target
        sources: dict[str, ast.expr] = {}
        if _is_enumerate(iterated) and isinstance(target, ast.Tuple) and len(target.elts) == 2:
            count, item = target.elts
            assert isinstance(iterated, ast.Call)
            sources.update((name.id, iterated) for name in [count] if isinstance(name, ast.Name))
            target, iterated = item, iterated.args[0]
        if isinstance(target, ast.Name):
            sources[target.id] = iterated
        element = [node.value] if isinstance(node, ast.DictComp) else [node.elt]
        found.update(
            (id(name), sources[name.id])
            for part in element
            for name in descendants(part)
            if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Load) and name.id in sources
        )
    _ROW_READS.put(function, found)
    return found


def _is_enumerate(expr: ast.expr) -> bool:
    """``enumerate(x)`` as written (the reads are mapped once per function, without resolving
    names; :func:`_comprehension` checks that it is the builtin)."""
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)):
        return False
    return expr.func.id == "enumerate" and len(expr.args) == 1


def _indexed(expr: ast.Subscript, evaluation: Evaluation) -> Origin | None:
    """``x[0]`` has one dimension fewer than ``x``; a constant slice that leaves part of an axis out
    (``x[0:1]``, ``x[:, 1:3]``) makes it smaller; a full slice (``x[:]``, ``x[...]``) keeps its shape."""
    origin = evaluation.origin(expr.value)
    if origin is None or is_number(evaluation.value(expr.value), origin):
        return None
    index = _slice_call(expr.slice, evaluation) or expr.slice
    if origin.item is not None:
        return origin.item if integer(index) is not None else None
    parts = [_slice_call(p, evaluation) or p for p in (index.elts if isinstance(index, ast.Tuple) else [index])]
    if origin.rank is None or not all(integer(p) is not None or _sliced(p, evaluation) is not None for p in parts):
        return None
    integers = sum(1 for p in parts if integer(p) is not None)
    if integers:
        return replace(origin, rank=origin.rank - integers, dims=None, extent=None)
    cut = any(_sliced(p, evaluation) == SMALLER for p in parts)
    extent = SMALLER if cut and origin.extent in (SAME, SMALLER) else None if cut else origin.extent
    return replace(origin, dims=None, extent=extent)


def _sliced(part: ast.expr, evaluation: Evaluation) -> str | None:
    """How much of its axis ``part`` keeps: :data:`SAME` for all of it (``:``, ``...``),
    :data:`SMALLER` for a slice with constant bounds that leaves part of it out (``1:``, ``0:1``,
    ``::2``, ``:n`` with ``n`` a known Python int); None for any other index."""
    if isinstance(part, ast.Constant) and part.value is Ellipsis:
        return SAME
    if not isinstance(part, ast.Slice):
        return None
    bounds = [None if b is None else _known_integer(b, evaluation) for b in (part.lower, part.upper, part.step)]
    if any(b is not None and k is None for b, k in zip((part.lower, part.upper, part.step), bounds)):
        return None
    lower, upper, step = bounds
    return SAME if lower in (None, 0) and upper is None and step in (None, 1) else SMALLER


def _slice_call(expr: ast.expr, evaluation: Evaluation) -> ast.Slice | None:
    """``slice(0, 1)`` as the ``0:1`` it stands for."""
    if not (isinstance(expr, ast.Call) and evaluation.qualname(expr.func) == "builtins.slice"):
        return None
    if expr.keywords or not 1 <= len(expr.args) <= 3:
        return None
    bounds: list[ast.expr | None] = [None if _is_none(a) else a for a in expr.args]
    lower, upper, step = ([None, *bounds, None] if len(bounds) == 1 else [*bounds, None, None])[:3]
    return ast.Slice(lower=lower, upper=upper, step=step)


def _is_none(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Constant) and expr.value is None


def _comprehension(expr: ast.ListComp | ast.DictComp, evaluation: Evaluation) -> Origin | None:
    """A list or dict comprehension over the rows of a tensor, ``[r * 2 for r in x]`` or
    ``{i: r for i, r in enumerate(x)}``: a container whose items are known when its element is
    (the reads of its target are rows: :func:`row_reads`)."""
    if len(expr.generators) != 1:
        return None
    generator = expr.generators[0]
    iterated, target = generator.iter, generator.target
    enumerated = isinstance(iterated, ast.Call) and evaluation.qualname(iterated.func) == "builtins.enumerate"
    if enumerated and isinstance(iterated, ast.Call) and len(iterated.args) == 1:
        if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
            return None
        iterated, target = iterated.args[0], target.elts[1]
    if row(evaluation.value(iterated), evaluation.origin(iterated)) is None or not isinstance(target, ast.Name):
        return None
    element = evaluation.origin(expr.value if isinstance(expr, ast.DictComp) else expr.elt)
    return Origin(item=element) if element is not None else None


def _scaled(expr: ast.BinOp, evaluation: Evaluation) -> Origin | None:
    """A value combined with a Python number keeps its shape; its dtype may be promoted."""
    sides = [(evaluation.value(e), evaluation.origin(e)) for e in (expr.left, expr.right)]
    numbers = [is_number(value, origin) for value, origin in sides]
    if all(numbers):
        return sides[0][1]
    for (value, origin), other_is_number in zip(sides, reversed(numbers)):
        if origin is not None and not is_number(value, origin) and origin.item is None and other_is_number:
            return replace(origin, dtype=None)
    return None


def _called(call: ast.Call, evaluation: Evaluation) -> Origin | None:
    qualname = evaluation.qualname(call.func)
    if qualname in ("builtins.list", "builtins.tuple") and len(call.args) == 1 and not call.keywords:
        item = row(evaluation.value(call.args[0]), evaluation.origin(call.args[0]))
        return Origin(item=item) if item is not None else None
    if is_mindspore_name(qualname):
        assert qualname is not None
        name = qualname.rsplit(".", 1)[-1]
        if name in _CREATORS:
            return _created(call, name, evaluation)
        if name in CONCATS or name in STACKS:
            return _joined(call, name, evaluation)
        if not call.args:
            return None
        operand, rest = call.args[0], call.args[1:]
    elif isinstance(call.func, ast.Attribute) and qualname is None:
        name, operand, rest = call.func.attr, call.func.value, call.args
    else:
        return None
    origin = evaluation.origin(operand)
    if origin is None or is_number(evaluation.value(operand), origin) or origin.item is not None:
        return None
    if name in _CASTS and len(rest) == 1:
        dtype = dtype_named(rest[0], evaluation.qualname)
        return replace(origin, dtype=dtype) if dtype else None
    if name in _LIKE and not rest and not call.keywords:
        return origin
    if name in _UNSQUEEZE and len(rest) == 1 and integer(rest[0]) is not None and origin.rank is not None:
        return replace(origin, rank=origin.rank + 1, dims=None, extent=None)
    if name in _REDUCTIONS:
        return _reduced(call, origin, rest)
    return None


def operands(call: ast.Call) -> list[ast.expr] | None:
    """The tensors a concat or stack call joins: the items of its literal tuple or list."""
    sequence = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "tensors"), None)
    if not isinstance(sequence, (ast.Tuple, ast.List)) or any(isinstance(e, ast.Starred) for e in sequence.elts):
        return None
    return list(sequence.elts)


def _joined(call: ast.Call, name: str, evaluation: Evaluation) -> Origin | None:
    """``ops.concat((y, x))`` of tensors derived from one value: larger than each whole operand
    (``ops.stack`` adds an axis)."""
    joined = operands(call) or []
    origins = [evaluation.origin(e) for e in joined]
    known = [
        o
        for e, o in zip(joined, origins)
        if o is not None and is_graph(evaluation.value(e), o) and o.item is None and o.rank is not None
    ]
    if len(known) < 2 or len(known) != len(origins) or len({(o.source, o.rank) for o in known}) != 1:
        return None
    base, rank = known[0].source, known[0].rank
    dtypes = {o.dtype for o in known}
    dtype = dtypes.pop() if len(dtypes) == 1 else None
    if name in STACKS:
        return Origin(base, rank=None if rank is None else rank + 1, dtype=dtype)
    whole = base is not None and all(o.extent in (SAME, LARGER) for o in known)
    return Origin(base, rank=rank, extent=LARGER if whole else None, dtype=dtype)


def _reduced(call: ast.Call, origin: Origin, rest: list[ast.expr]) -> Origin | None:
    """A reduction over an axis without ``keepdims`` drops a dimension; over all axes it is a scalar tensor."""
    keywords = {k.arg: k.value for k in call.keywords}
    axes = [keywords[a] for a in _AXIS if a in keywords] + rest
    keep = next((keywords[k] for k in _KEEPDIMS if k in keywords), None)
    if len(axes) > 1 or (keep is not None and not isinstance(keep, ast.Constant)):
        return None
    # sums and means may promote integers; only `any` and `all` have a dtype known here
    func = call.func
    called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    dtype = "bool" if called in ("any", "all") else None
    if isinstance(keep, ast.Constant) and keep.value:
        return replace(origin, dtype=dtype, extent=None)
    if not axes:
        return Origin(rank=0, dtype=dtype)
    parts = axes[0].elts if isinstance(axes[0], ast.Tuple) else [axes[0]]
    if origin.rank is None or any(integer(p) is None for p in parts):
        return None
    return replace(origin, rank=origin.rank - len(parts), dims=None, extent=None, dtype=dtype)


def _created(call: ast.Call, name: str, evaluation: Evaluation) -> Origin | None:
    """``ops.zeros((2, 3))``, ``mint.ones(2, 3, dtype=ms.int32)``: a literal shape of its own."""
    qualname = evaluation.qualname
    keywords = {k.arg: k.value for k in call.keywords}
    sizes = call.args[:1] if name == "full" else call.args
    if "size" in keywords:
        sizes = [keywords["size"]]
    shape_args = [a for a in sizes if dtype_named(a, qualname) is None]
    if len(shape_args) == 1 and isinstance(shape_args[0], (ast.Tuple, ast.List)):
        shape_args = list(shape_args[0].elts)
    dims = [integer(a) for a in shape_args]
    if not dims or any(d is None for d in dims):
        return None
    dtypes = [dtype_named(a, qualname) for a in sizes if dtype_named(a, qualname)]
    dtype = dtype_named(keywords["dtype"], qualname) if "dtype" in keywords else (dtypes[0] if dtypes else None)
    default = None if name == "full" else "float32"
    shape = tuple(d for d in dims if d is not None)
    return Origin(rank=len(shape), dims=shape, dtype=dtype or default)


def _known_integer(expr: ast.expr, evaluation: Evaluation) -> int | None:
    """An int literal, or a name whose value is a known Python int (``net(x, 2)``)."""
    if isinstance(expr, ast.Name):
        value = evaluation.value(expr)
        known = value.value if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT else None
        return known if type(known) is int else None
    return integer(expr)


def integer(expr: ast.expr) -> int | None:
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        inner = integer(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, ast.Constant) and type(expr.value) is int:
        return expr.value
    return None
