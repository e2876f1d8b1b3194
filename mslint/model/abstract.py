"""Abstract values of graph code, shaped like the compiler's own.

MindSpore's type inference gives each node of a graph an abstract value: ``AbstractTensor``
(dtype and shape), ``AbstractScalar`` (a Python number, bool, string or None, with its value
where it is a constant), ``AbstractTuple``/``AbstractList``/``AbstractDictionary`` of abstract
values, a function, a class, a Cell instance... mslint infers the same shapes statically, where
the code shows them, and adds what the compiler never needs: **unknown**, a value that nothing
in the checked code shows (an entry's parameter with no call site, ``net(*data)``).

Each value also says *when* it is known (:class:`Kind`): at compile time (a constant, which
MindSpore folds, so Python and numpy may compute with it), at run time (a graph value: inputs,
Parameters, results of tensor operations), or not inferred. Rules that ask only "may Python
compute with this?" read the kind; rules about types read the value.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Optional


class Kind(enum.IntEnum):
    """When a value is known, ordered so that the kind of a value made of parts is the largest
    of theirs."""

    CONSTANT = 0
    """Known at compile time: folded, so Python and numpy may compute with it."""
    UNKNOWN = 1
    """Not inferred: an entry's parameter that nothing shows a tensor or a Python number is given
    (no call site, ``net(*data)``). A finding that holds only if it is a graph value is a warning."""
    GRAPH = 2
    """A runtime value: a tensor input, a Parameter, the result of a tensor operation."""


class _NotKnown:
    """The value of a Python scalar whose value is not known (``AnyValue`` to the compiler)."""

    def __repr__(self) -> str:
        return "NOT_KNOWN"


NOT_KNOWN = _NotKnown()

Shape = Optional[tuple[Optional[int], ...]]
"""Dimensions, ``None`` for one not known; ``None`` for a shape whose rank is not known."""


@dataclass(frozen=True)
class AbstractValue:
    kind: Kind

    def describe(self) -> str:
        """What the value is, in the compiler's words where it has some."""
        return {Kind.CONSTANT: "a constant", Kind.UNKNOWN: "a value not inferred", Kind.GRAPH: "a graph value"}[
            self.kind
        ]


@dataclass(frozen=True)
class AbstractAny(AbstractValue):
    """A value whose type is not inferred: only when it is known is."""


@dataclass(frozen=True)
class AbstractTensor(AbstractValue):
    dtype: str | None = None
    """``float32``, ``int64``...; None where not known."""
    shape: Shape = None
    parameter: bool = False
    dynamic: bool = False
    """Compiled with a dimension or the rank left open on purpose (``set_inputs`` given ``None``):
    a dynamic shape to the compiler, not merely one mslint does not know."""

    @property
    def rank(self) -> int | None:
        return None if self.shape is None else len(self.shape)

    @property
    def elements(self) -> int | None:
        """The number of elements, where every dimension is known."""
        if self.shape is None or None in self.shape:
            return None
        count = 1
        for dimension in self.shape:
            count *= dimension or 0
        return count

    def describe(self) -> str:
        dtype = self.dtype.capitalize() if self.dtype else "?"
        shape = "" if self.shape is None else f", shape={list(d if d is not None else -1 for d in self.shape)}"
        return f"{'Parameter' if self.parameter else 'Tensor'}[{dtype}{shape}]"


@dataclass(frozen=True)
class AbstractScalar(AbstractValue):
    type: str = "int"
    """``int``, ``float``, ``bool``, ``str`` or ``None``."""
    value: object = NOT_KNOWN

    def describe(self) -> str:
        if self.value is not NOT_KNOWN:
            return f"the Python {self.type} {self.value!r}"
        return f"a Python {self.type}" + (" computed at run time" if self.kind is Kind.GRAPH else "")


@dataclass(frozen=True)
class AbstractSequence(AbstractValue):
    """A tuple or list: its items where its length is known, the join of its items otherwise."""

    type: str = "tuple"
    items: tuple[AbstractValue, ...] | None = None
    item: AbstractValue | None = None

    def element(self) -> AbstractValue:
        """What an item read at a position not known holds."""
        if self.items is not None:
            return join_all(self.items, empty=AbstractAny(self.kind))
        return self.item if self.item is not None else AbstractAny(self.kind)

    def describe(self) -> str:
        if self.items is None:
            return f"a {self.type}"
        return f"a {self.type} of {len(self.items)}"


@dataclass(frozen=True)
class AbstractDict(AbstractValue):
    def describe(self) -> str:
        return "a dict"


@dataclass(frozen=True)
class AbstractDtype(AbstractValue):
    """A dtype of MindSpore (``ms.float16``): a constant, which casts and creations are given."""

    name: str = ""

    def describe(self) -> str:
        return f"the dtype {self.name}"


@dataclass(frozen=True)
class Construction:
    """The arguments an instance was built with, as values (``nn.Dense(64, 10)``,
    ``ops.ReduceSum(keep_dims=True)``): what its calls' shapes depend on."""

    args: tuple[AbstractValue, ...] = ()
    keywords: tuple[tuple[str, AbstractValue], ...] = ()

    def get(self, position: int | None, keyword: str) -> AbstractValue | None:
        """The value given at ``position`` or as ``keyword``; None where it was not given."""
        if position is not None and position < len(self.args):
            return self.args[position]
        return next((value for name, value in self.keywords if name == keyword), None)


@dataclass(frozen=True)
class AbstractInstance(AbstractValue):
    """An instance of a class: a Cell, a Primitive, a plain class."""

    qualname: str = ""
    cell: bool = False
    parameters: bool | None = None
    """For a Cell: whether it owns Parameters (its own or those of the Cells it holds); None
    where it may."""
    construction: Construction | None = None
    """For a Cell or a Primitive of MindSpore: the arguments it was built with, where one call
    builds it."""

    def describe(self) -> str:
        return f"{'a Cell' if self.cell else 'an instance'} of `{self.qualname}`"


@dataclass(frozen=True)
class AbstractReference(AbstractValue):
    """A class or function of a module's top level, handed on as a value (``block=BottleNeck``,
    ``act_layer=nn.GELU``): ``module`` is the path of the project's file that defines it, or the
    importable name of MindSpore's module; ``qualname`` its name there."""

    module: str = ""
    qualname: str = ""

    def describe(self) -> str:
        return f"`{self.qualname}`"


@dataclass(frozen=True)
class AbstractBuilt(AbstractValue):
    """What a call of a class or function of a module's top level builds, handed on as a value
    (``fn=Attention(dim, heads)``, ``backbone=resnet50()``): the callee and what the call gives it.
    Only the first instances of :mod:`mslint.model.instances` hold one, for verify to build it so."""

    callee: AbstractReference = AbstractReference(Kind.CONSTANT)
    args: tuple[AbstractValue, ...] = ()
    keywords: tuple[tuple[str, AbstractValue], ...] = ()

    def describe(self) -> str:
        return f"what `{self.callee.qualname}` builds"


@dataclass(frozen=True)
class AbstractFunction(AbstractValue):
    name: str = "<lambda>"

    def describe(self) -> str:
        return f"the function `{self.name}`"


_NUMBERS = ("int", "float", "bool")


def _is_number(value: AbstractValue) -> bool:
    return isinstance(value, AbstractScalar) and value.type in _NUMBERS


def is_runtime_number(value: AbstractValue) -> bool:
    """A Python number computed at run time (``int(t)``, ``t.item()``), or a tuple or list of
    numbers with one of them: not a tensor, though a graph value."""
    if isinstance(value, AbstractScalar):
        return value.kind is Kind.GRAPH and value.type in _NUMBERS
    if isinstance(value, AbstractSequence) and value.items:
        numbers = [is_runtime_number(item) for item in value.items]
        return any(numbers) and all(n or item.kind is Kind.CONSTANT for n, item in zip(numbers, value.items))
    return False


def is_0d_tensor(value: AbstractValue) -> bool:
    """A tensor of rank 0: a reduction over every axis (``t.sum()``)."""
    return isinstance(value, AbstractTensor) and value.shape == ()


def latest(parts: Iterable[AbstractValue]) -> Kind:
    """The kind of a value made of ``parts``: known once all of them are (CONSTANT for none)."""
    kind = Kind.CONSTANT
    for part in parts:
        if part.kind > kind:
            kind = part.kind
    return kind


def sequence(type_: str, items: tuple[AbstractValue, ...]) -> AbstractSequence:
    return AbstractSequence(latest(items), type_, items)


def sequence_of(type_: str, item: AbstractValue, kind: Kind) -> AbstractSequence:
    """A tuple or list of a length not known, whose items are each ``item``."""
    return AbstractSequence(max(kind, item.kind), type_, None, item)


def literal(value: object) -> AbstractValue:
    """The abstract value of a Python literal (a constant of the code, an input spec)."""
    if value is None:
        return AbstractScalar(Kind.CONSTANT, "None", None)
    if isinstance(value, (bool, int, float, str)):
        return AbstractScalar(Kind.CONSTANT, type(value).__name__, value)
    if isinstance(value, (tuple, list)):
        return sequence(type(value).__name__, tuple(map(literal, value)))
    return AbstractAny(Kind.CONSTANT)


def with_kind(value: AbstractValue, kind: Kind) -> AbstractValue:
    """``value``, known no earlier than ``kind``: the item of a tuple read at a runtime index, a
    ternary with a runtime test."""
    if value.kind >= kind:
        return value
    if isinstance(value, AbstractScalar):
        return replace(value, kind=kind, value=NOT_KNOWN)
    if isinstance(value, AbstractTensor):
        return replace(value, kind=kind)
    return AbstractAny(kind)


def join(first: AbstractValue, second: AbstractValue) -> AbstractValue:
    """The value of something that is either (two ``return`` statements, two bindings of a name):
    the common type where both have one, item by item for tuples of one length."""
    if first == second:
        return first
    kind = max(first.kind, second.kind)
    unknown = AbstractAny(Kind.UNKNOWN)
    if unknown in (first, second) and kind is Kind.GRAPH:
        # Nothing inferred on one side, a graph value on the other: a graph value, as before any
        # type was inferred; the other side's type is all that is known of it.
        return second if first == unknown else first
    if isinstance(first, AbstractTensor) and isinstance(second, AbstractTensor):
        dtype = first.dtype if first.dtype == second.dtype else None
        shape = _join_shapes(first.shape, second.shape)
        dynamic = first.dynamic or second.dynamic  # one of the graphs compiled is of a dynamic shape
        return AbstractTensor(kind, dtype, shape, first.parameter and second.parameter, dynamic)
    if isinstance(first, AbstractScalar) and isinstance(second, AbstractScalar) and first.type == second.type:
        value = first.value if first.value == second.value and kind is Kind.CONSTANT else NOT_KNOWN
        return AbstractScalar(kind, first.type, value)
    number, tensor = (second, first) if is_0d_tensor(first) else (first, second)
    if is_0d_tensor(tensor) and (_is_number(number) or number == AbstractAny(Kind.CONSTANT)):
        # A name bound to a number and to a 0-d tensor (``n = min(n, t.sum())``) holds one
        # number either way; the compiler sees a join only between branches, which rules check.
        return AbstractTensor(kind, None, ())
    if isinstance(first, AbstractSequence) and isinstance(second, AbstractSequence):
        type_ = first.type if first.type == second.type else "tuple"
        if first.items is not None and second.items is not None and len(first.items) == len(second.items):
            return sequence(type_, tuple(map(join, first.items, second.items)))
        return sequence_of(type_, join(first.element(), second.element()), kind)
    if isinstance(first, AbstractInstance) and isinstance(second, AbstractInstance):
        first, second = (replace(v, construction=None) for v in (first, second))  # built with other arguments
    if isinstance(first, (AbstractInstance, AbstractFunction, AbstractDict)) and replace(second, kind=kind) == replace(
        first, kind=kind
    ):
        return replace(first, kind=kind)
    return AbstractAny(kind)


def join_all(values: Iterable[AbstractValue], empty: AbstractValue) -> AbstractValue:
    result: AbstractValue | None = None
    for value in values:
        result = value if result is None else join(result, value)
    return empty if result is None else result


def _join_shapes(first: Shape, second: Shape) -> Shape:
    if first is None or second is None or len(first) != len(second):
        return None
    return tuple(a if a == b else None for a, b in zip(first, second))


def element(value: AbstractValue) -> AbstractValue:
    """What iterating over ``value`` (or unpacking it into more names than it shows) gives."""
    if isinstance(value, AbstractSequence):
        return with_kind(value.element(), value.kind)
    if isinstance(value, AbstractTensor):
        shape = value.shape[1:] if value.shape else None
        return AbstractTensor(value.kind, value.dtype, shape)
    return AbstractAny(value.kind)


def widened(value: AbstractValue) -> AbstractValue:
    """``value`` without the constants' values: what a helper is evaluated for, so that
    ``self.block(x, 3)`` and ``self.block(x, 4)`` share one evaluation. ``None`` is kept: it is
    its type's one value, and the compiler folds a test of it (``if mask is not None``); so are a
    tensor's shape and dtype, which the compiler specialises the helper for (a sub-Cell's output
    has the shape its input gives it)."""
    if isinstance(value, AbstractScalar) and value.value is not NOT_KNOWN and value.type != "None":
        return replace(value, value=NOT_KNOWN)
    if isinstance(value, AbstractSequence) and value.items is not None:
        return sequence(value.type, tuple(map(widened, value.items)))
    return value
