"""Transfer functions: the shape and dtype a MindSpore operation gives, from those of its operands.

The compiler infers every node's abstract value from its inputs' before it runs anything; mslint
does the same for the operations real code uses: element-by-element operations (broadcasting and
promoting dtypes), reductions over ``axis`` with or without the reduced axes kept, matrix
products, rearrangements (``reshape``, ``transpose``, ``expand_dims``, ``squeeze``, ``flatten``),
joins (``concat``, ``stack``), casts, creations, and the ``nn`` layers that map an input to an
output (``Dense``, ``Conv2d``, pooling, norms, ``Embedding``, activations). Each is reached by
name three ways: a function (``ops.sum(x, 1)``), a Tensor method (``x.sum(1)``, the receiver
first) and a primitive instance (``ops.ReduceSum(keep_dims=True)(x, 1)``, its constructor's
arguments apart).

An operation without a transfer function here, or given an operand whose shape or dtype is not
known, gives None or an unknown part: never a guess. ``tests/test_transfer_functions.py`` runs
the operations on MindSpore and compares; what MindSpore does otherwise is listed, with its
reason, in ``mslint/data/transfer-disagreements-2.10.0.json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from mslint.model.abstract import (
    AbstractDtype,
    AbstractScalar,
    AbstractSequence,
    AbstractTensor,
    AbstractValue,
    Construction,
    Kind,
    Shape,
    sequence,
)

# Dtypes by rank in promotion: a kind (bool, integer, float) wins over a lower one, and within a
# kind the wider dtype wins.
_INTEGERS = ("uint8", "int8", "int16", "int32", "int64")
_FLOATS = ("float16", "bfloat16", "float32", "float64")


@dataclass(frozen=True)
class Operands:
    """The values a call gives an operation: positional, then by keyword."""

    args: Sequence[AbstractValue]
    keywords: Mapping[str, AbstractValue]
    kind: Kind

    def get(self, position: int | None, *names: str) -> AbstractValue | None:
        if position is not None and position < len(self.args):
            return self.args[position]
        return next((self.keywords[n] for n in names if n in self.keywords), None)

    def tensor(self, position: int = 0, *names: str) -> AbstractTensor | None:
        value = self.get(position, *names)
        return value if isinstance(value, AbstractTensor) else None


Transfer = Callable[[Operands], "AbstractValue | None"]


def promoted(first: str | None, second: str | None) -> str | None:
    """The dtype of an operation on tensors of these dtypes."""
    if first is None or second is None:
        return None
    if first == second:
        return first
    ranks = [_promotion_rank(first), _promotion_rank(second)]
    if None in ranks:
        return None
    return first if ranks[0] > ranks[1] else second  # type: ignore[operator]


def _promotion_rank(dtype: str) -> tuple[int, int] | None:
    if dtype == "bool":
        return (0, 0)
    if dtype in _INTEGERS:
        return (1, _INTEGERS.index(dtype))
    if dtype in _FLOATS:
        return (2, _FLOATS.index(dtype))
    return None


def _with_number(tensor: str | None, number: AbstractScalar) -> str | None:
    """The dtype of an operation on a tensor and a Python number: the tensor's, unless the number
    is of a higher kind (a float on an integer tensor gives float32, an int on a bool one int64)."""
    if tensor is None or number.type not in ("int", "float", "bool"):
        return None
    if number.type == "float" and (tensor == "bool" or tensor in _INTEGERS):
        return "float32"
    if number.type == "int" and tensor == "bool":
        return "int64"
    return tensor


def broadcast(first: Shape, second: Shape) -> Shape:
    """The shape two shapes broadcast to; None where it is not known or they do not broadcast."""
    if first is None or second is None:
        return None
    longer, shorter = (first, second) if len(first) >= len(second) else (second, first)
    padded = (1,) * (len(longer) - len(shorter)) + shorter
    dimensions: list[int | None] = []
    for a, b in zip(longer, padded):
        if a == b or b == 1:
            dimensions.append(a)
        elif a == 1:
            dimensions.append(b)
        elif a is None or b is None:
            dimensions.append(None)
        else:
            return None
    return tuple(dimensions)


def elementwise(left: AbstractValue, right: AbstractValue, kind: Kind, dtype: str | None = "") -> AbstractTensor | None:
    """An operation element by element on a tensor and a tensor or a Python number: the broadcast
    shape and the promoted dtype (``dtype`` instead, where the operation decides it: ``bool`` for a
    comparison)."""
    tensors = [v for v in (left, right) if isinstance(v, AbstractTensor)]
    if len(tensors) == 2:
        shape = broadcast(tensors[0].shape, tensors[1].shape)
        promoted_dtype = promoted(tensors[0].dtype, tensors[1].dtype)
        if tensors[0].dtype != tensors[1].dtype and () in (tensors[0].shape, tensors[1].shape):
            promoted_dtype = None  # a 0-d tensor of another dtype: `mul` keeps the other's, `add` promotes
    elif len(tensors) == 1:
        other = right if left is tensors[0] else left
        if not isinstance(other, AbstractScalar) or other.type not in ("int", "float", "bool"):
            return None
        shape, promoted_dtype = tensors[0].shape, _with_number(tensors[0].dtype, other)
        if shape == () and promoted_dtype not in ("float32", "float64"):
            promoted_dtype = None  # a 0-d tensor and a number: `int32[] * 3` is int64, `int32[] + 3` int32
    else:
        return None
    return AbstractTensor(kind, promoted_dtype if dtype == "" else dtype, shape)


def _binary(result_dtype: str | None = "", integers_to_float: bool = False, of_bools: bool = True) -> Transfer:
    """An operation element by element on two operands; ``of_bools`` False where one on two bools
    gives no bool (``subtract`` gives int64, ``sub`` refuses them)."""

    def transfer(operands: Operands) -> AbstractValue | None:
        left, right = operands.get(0, "input", "x"), operands.get(1, "other", "y")
        if left is None or right is None:
            return None
        result = elementwise(left, right, operands.kind, result_dtype)
        if result is not None and integers_to_float and (result.dtype in _INTEGERS or result.dtype == "bool"):
            return AbstractTensor(result.kind, "float32", result.shape)
        if result is not None and not of_bools and result.dtype == "bool":
            return AbstractTensor(result.kind, None, result.shape)
        return result

    return transfer


def _same(result_dtype: str | None = "", floats_only: bool = False) -> Transfer:
    """An operation that keeps the shape of its first operand: its dtype too, or ``result_dtype``."""

    def transfer(operands: Operands) -> AbstractValue | None:
        tensor = operands.tensor(0, "input", "x")
        if tensor is None:
            return None
        dtype = tensor.dtype if result_dtype == "" else result_dtype
        if floats_only and dtype not in _FLOATS:
            dtype = None  # MindSpore rejects some integer inputs and converts others
        return AbstractTensor(operands.kind, dtype, tensor.shape)

    return transfer


def constant_int(value: AbstractValue | None) -> int | None:
    known = value.value if isinstance(value, AbstractScalar) else None
    return known if isinstance(known, int) and not isinstance(known, bool) else None


def _constant_ints(value: AbstractValue | None) -> tuple[int, ...] | None:
    """A constant int or tuple or list of ints, as a tuple."""
    single = constant_int(value)
    if single is not None:
        return (single,)
    if isinstance(value, AbstractSequence) and value.items is not None:
        items = [constant_int(item) for item in value.items]
        if all(i is not None for i in items):
            return tuple(i for i in items if i is not None)
    return None


def _constant_bool(value: AbstractValue | None, default: bool) -> bool | None:
    if value is None:
        return default
    known = value.value if isinstance(value, AbstractScalar) else None
    return known if isinstance(known, bool) else None


def _is_none(value: AbstractValue | None) -> bool:
    return value is None or (isinstance(value, AbstractScalar) and value.type == "None")


def _axes(value: AbstractValue | None, rank: int) -> tuple[int, ...] | None:
    """Axes an ``axis`` argument names, each in ``range(rank)``; every axis for None or ``()``."""
    if _is_none(value):
        return tuple(range(rank))
    axes = _constant_ints(value)
    if axes is None or any(not -max(rank, 1) <= a < max(rank, 1) for a in axes):  # 0 or -1 of a 0-d tensor
        return None
    return tuple(sorted({a % rank if rank else 0 for a in axes})) if axes else tuple(range(rank))


_KEEPDIMS = ("keepdims", "keep_dims", "keepdim")
_AXIS = ("axis", "dim")


def _reduction(result_dtype: str | None = "", keep_position: int | None = 2, widens: bool = False) -> Transfer:
    """``sum(x, axis, keepdims)`` and the like: the axes reduced, kept as 1 or dropped. ``widens``:
    the function ``sum`` and ``prod`` of bools and integers give int64, as PyTorch's (the
    primitives ``ReduceSum``/``ReduceProd`` keep the dtype)."""

    def transfer(operands: Operands) -> AbstractValue | None:
        tensor = operands.tensor(0, "input", "x")
        if tensor is None:
            return None
        keep = _constant_bool(operands.get(keep_position, *_KEEPDIMS), default=False)
        dtype = tensor.dtype if result_dtype == "" else result_dtype
        if widens and (dtype == "bool" or dtype in _INTEGERS):
            # `prod` over a tuple of axes keeps an int32 (ReduceProd), over one axis widens it
            dtype = None if isinstance(operands.get(1, *_AXIS), AbstractSequence) and dtype != "int64" else "int64"
        if widens and "dtype" in operands.keywords:
            given = operands.keywords["dtype"]
            dtype = given.name if isinstance(given, AbstractDtype) else dtype if _is_none(given) else None
        if tensor.shape is None or keep is None:
            return AbstractTensor(operands.kind, dtype)
        reduced = _axes(operands.get(1, *_AXIS), len(tensor.shape))
        if reduced is None:
            return AbstractTensor(operands.kind, dtype)
        return AbstractTensor(operands.kind, dtype, reduced_shape(tensor.shape, reduced, keep))

    return transfer


def reduced_shape(shape: tuple[int | None, ...], axes: tuple[int, ...], keep: bool) -> tuple[int | None, ...]:
    if keep:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def _matmul(operands: Operands) -> AbstractValue | None:
    """``ops.matmul``: vectors are promoted, batch dimensions broadcast."""
    left, right = operands.tensor(0, "input", "x"), operands.tensor(1, "other", "y")
    if left is None or right is None:
        return None
    return AbstractTensor(operands.kind, promoted(left.dtype, right.dtype), matmul_shape(left.shape, right.shape))


def matmul_shape(left: Shape, right: Shape, transpose_left: bool = False, transpose_right: bool = False) -> Shape:
    if left is None or right is None or not left or not right:
        return None
    if len(left) == 1 and len(right) == 1:
        return ()
    a = left if len(left) > 1 else (1, *left)
    b = right if len(right) > 1 else (*right, 1)
    if transpose_left:
        a = (*a[:-2], a[-1], a[-2])
    if transpose_right:
        b = (*b[:-2], b[-1], b[-2])
    if a[-1] is not None and b[-2] is not None and a[-1] != b[-2]:
        return None
    batch = broadcast(a[:-2], b[:-2])
    if batch is None:
        return None
    shape = (*batch, a[-2], b[-1])
    if len(left) == 1:
        shape = shape[:-2] + shape[-1:]
    if len(right) == 1:
        shape = shape[:-1]
    return shape


def _primitive_matmul(batch: bool) -> Transfer:
    """``ops.MatMul(transpose_a, transpose_b)`` (2-D) and ``ops.BatchMatMul`` (3-D and more)."""

    def transfer(operands: Operands) -> AbstractValue | None:
        left, right = operands.tensor(0), operands.tensor(1)
        if left is None or right is None:
            return None
        transpose_a = _constant_bool(operands.keywords.get("transpose_a"), default=False)
        transpose_b = _constant_bool(operands.keywords.get("transpose_b"), default=False)
        dtype = promoted(left.dtype, right.dtype)
        shapes = (left.shape, right.shape)
        if transpose_a is None or transpose_b is None or None in shapes:
            return AbstractTensor(operands.kind, dtype)
        assert left.shape is not None and right.shape is not None
        ranks_fit = (
            len(left.shape) >= 3 and len(right.shape) >= 3 if batch else len(left.shape) == len(right.shape) == 2
        )
        shape = matmul_shape(left.shape, right.shape, transpose_a, transpose_b) if ranks_fit else None
        return AbstractTensor(operands.kind, dtype, shape)

    return transfer


def _rest(operands: Operands, *names: str) -> AbstractValue | None:
    """What follows the tensor: one tuple (``reshape(x, (2, 3))``), or sizes one by one
    (``x.view(2, 3)``), or a keyword."""
    rest = list(operands.args[1:])
    if not rest:
        return next((operands.keywords[n] for n in names if n in operands.keywords), None)
    return rest[0] if len(rest) == 1 else sequence("tuple", tuple(rest))


def _reshape(operands: Operands) -> AbstractValue | None:
    tensor = operands.tensor(0, "input", "x")
    if tensor is None:
        return None
    target = _rest(operands, "shape")
    sizes = _constant_ints(target)
    if sizes is None:
        # sizes computed at compile time (`x.reshape(n * c, h * w)`): the rank is theirs
        items = target.items if isinstance(target, AbstractSequence) else None
        ints = items is not None and all(isinstance(i, AbstractScalar) and i.type == "int" for i in items)
        return AbstractTensor(operands.kind, tensor.dtype, (None,) * len(items) if items is not None and ints else None)
    shape: list[int | None] = [s if s >= 0 else None for s in sizes]
    elements = tensor.elements
    if sizes.count(-1) == 1 and elements is not None:
        known = math.prod(s for s in sizes if s != -1)
        shape[sizes.index(-1)] = elements // known if known and elements % known == 0 else None
    return AbstractTensor(operands.kind, tensor.dtype, tuple(shape))


def _transpose(operands: Operands) -> AbstractValue | None:
    """``transpose``/``permute`` with the whole permutation (graph mode's ``x.transpose(0, 2, 1)``)."""
    tensor = operands.tensor(0, "input", "x")
    if tensor is None:
        return None
    order = _constant_ints(_rest(operands, "input_perm", "dims", "axes"))
    shape = tensor.shape
    if order is None or shape is None or sorted(a % len(shape) for a in order) != list(range(len(shape))):
        return AbstractTensor(operands.kind, tensor.dtype, None if order is None else (None,) * len(order))
    if not all(-len(shape) <= a < len(shape) for a in order):
        return None  # an axis past the rank: MindSpore refuses it (7 % 4 would pass for 3)
    return AbstractTensor(operands.kind, tensor.dtype, tuple(shape[a] for a in order))


def _swapaxes(operands: Operands) -> AbstractValue | None:
    """``swapaxes(x, a, b)`` and ``ops.transpose``'s two-axis form in ``mint``."""
    tensor = operands.tensor(0, "input", "x")
    first, second = constant_int(operands.get(1, "axis0", "dim0")), constant_int(operands.get(2, "axis1", "dim1"))
    if tensor is None:
        return None
    shape = tensor.shape
    if shape is None or first is None or second is None or not shape:
        return AbstractTensor(operands.kind, tensor.dtype, None if shape is None else (None,) * len(shape))
    dims = list(shape)
    dims[first % len(dims)], dims[second % len(dims)] = dims[second % len(dims)], dims[first % len(dims)]
    return AbstractTensor(operands.kind, tensor.dtype, tuple(dims))


def _expand_dims(operands: Operands) -> AbstractValue | None:
    tensor = operands.tensor(0, "input", "x")
    axis = constant_int(operands.get(1, *_AXIS))
    if tensor is None:
        return None
    if tensor.shape is None or axis is None or not -len(tensor.shape) - 1 <= axis <= len(tensor.shape):
        return AbstractTensor(operands.kind, tensor.dtype)
    position = axis % (len(tensor.shape) + 1)
    return AbstractTensor(operands.kind, tensor.dtype, (*tensor.shape[:position], 1, *tensor.shape[position:]))


def _squeeze(operands: Operands) -> AbstractValue | None:
    tensor = operands.tensor(0, "input", "x")
    if tensor is None:
        return None
    axis = operands.get(1, *_AXIS)
    shape = tensor.shape
    if shape is None:
        return AbstractTensor(operands.kind, tensor.dtype)
    if _is_none(axis):
        if None in shape:
            return AbstractTensor(operands.kind, tensor.dtype)
        return AbstractTensor(operands.kind, tensor.dtype, tuple(d for d in shape if d != 1))
    axes = _axes(axis, len(shape))
    if not shape and axes is not None:
        return AbstractTensor(operands.kind, tensor.dtype, ())  # axis 0 or -1 of a 0-d tensor
    if axes is None or any(shape[a] is None for a in axes):
        return AbstractTensor(operands.kind, tensor.dtype)
    return AbstractTensor(operands.kind, tensor.dtype, tuple(d for i, d in enumerate(shape) if i not in axes or d != 1))


def _flatten(start_default: int) -> Transfer:
    """``flatten(x, start_dim, end_dim)``: ``ops.flatten`` keeps the first axis, ``Tensor.flatten`` none."""

    def transfer(operands: Operands) -> AbstractValue | None:
        tensor = operands.tensor(0, "input", "x")
        if tensor is None:
            return None
        start_value = operands.keywords.get("start_dim")
        end_value = operands.keywords.get("end_dim")
        start = start_default if start_value is None else constant_int(start_value)
        end = -1 if end_value is None else constant_int(end_value)
        shape = tensor.shape
        if shape is None or start is None or end is None or len(operands.args) > 1:
            return AbstractTensor(operands.kind, tensor.dtype)
        if not shape:
            return AbstractTensor(operands.kind, tensor.dtype, (1,))
        first, last = start % len(shape), end % len(shape)
        if first > last:
            return AbstractTensor(operands.kind, tensor.dtype)
        merged = shape[first : last + 1]
        size = None if None in merged else math.prod(d for d in merged if d is not None)
        return AbstractTensor(operands.kind, tensor.dtype, (*shape[:first], size, *shape[last + 1 :]))

    return transfer


def _joined(new_axis: bool) -> Transfer:
    """``concat(tensors, axis)`` and ``stack(tensors, axis)``."""

    def transfer(operands: Operands) -> AbstractValue | None:
        tensors = operands.get(0, "tensors", "input_x", "x")
        axis = constant_int(operands.get(1, *_AXIS)) if operands.get(1, *_AXIS) is not None else 0
        if not isinstance(tensors, AbstractSequence) or tensors.items is None or not tensors.items:
            return None
        items = [t for t in tensors.items if isinstance(t, AbstractTensor)]
        if len(items) != len(tensors.items):
            return None
        dtype = items[0].dtype
        for item in items[1:]:
            dtype = promoted(dtype, item.dtype)
        shapes = [t.shape for t in items]
        if axis is None or any(s is None for s in shapes) or len({len(s) for s in shapes if s is not None}) != 1:
            return AbstractTensor(operands.kind, dtype)
        rank = len(shapes[0] or ())
        if new_axis:
            if not -rank - 1 <= axis <= rank:
                return AbstractTensor(operands.kind, dtype)
            position = axis % (rank + 1)
            common = _common_shape(shapes)
            return AbstractTensor(
                operands.kind, dtype, None if common is None else (*common[:position], len(items), *common[position:])
            )
        if not -rank <= axis < rank:
            return AbstractTensor(operands.kind, dtype)
        position = axis % rank
        sizes = [s[position] for s in shapes if s is not None]
        rest = _common_shape([s[:position] + s[position + 1 :] for s in shapes if s is not None])
        total = None if None in sizes else sum(d for d in sizes if d is not None)
        if rest is None:
            return AbstractTensor(operands.kind, dtype)
        return AbstractTensor(operands.kind, dtype, (*rest[:position], total, *rest[position:]))

    return transfer


def _common_shape(shapes: Sequence[Shape]) -> Shape:
    """The one shape ``shapes`` share, dimension by dimension (None where one is not known)."""
    first = shapes[0]
    if first is None:
        return None
    dims: list[int | None] = list(first)
    for shape in shapes[1:]:
        if shape is None or len(shape) != len(dims):
            return None
        dims = [a if a == b else None for a, b in zip(dims, shape)]
    return tuple(dims)


def _cast(position: int, *names: str) -> Transfer:
    def transfer(operands: Operands) -> AbstractValue | None:
        tensor = operands.tensor(0, "input", "x")
        dtype = operands.get(position, *names)
        if tensor is None:
            return None
        return AbstractTensor(operands.kind, dtype.name if isinstance(dtype, AbstractDtype) else None, tensor.shape)

    return transfer


def _created(default_dtype: str | None, dtype_position: int | None) -> Transfer:
    """``zeros(shape, dtype)``, ``ones``, ``full(shape, value, dtype)``: a literal shape."""

    def transfer(operands: Operands) -> AbstractValue | None:
        dims = _constant_ints(operands.get(0, "size", "shape"))
        dtype = operands.get(dtype_position, "dtype")
        name = dtype.name if isinstance(dtype, AbstractDtype) else default_dtype if _is_none(dtype) else None
        return AbstractTensor(operands.kind, name, dims)

    return transfer


def _like(operands: Operands) -> AbstractValue | None:
    tensor = operands.tensor(0, "input", "x")
    dtype = operands.keywords.get("dtype")
    if tensor is None:
        return None
    return AbstractTensor(operands.kind, dtype.name if isinstance(dtype, AbstractDtype) else tensor.dtype, tensor.shape)


def _index_reduction(dtype: str | None) -> Transfer:
    """``argmax(x, axis, keepdims)``: indices of ``dtype`` (``ops.argmax`` gives int64,
    ``ops.argmin`` int32); without ``axis``, one index into the flattened tensor (0-d, whatever
    ``keepdims`` says)."""
    reduction = _reduction(dtype)

    def transfer(operands: Operands) -> AbstractValue | None:
        tensor = operands.tensor(0, "input", "x")
        if tensor is not None and tensor.shape == ():
            return AbstractTensor(operands.kind, "int64" if dtype == "int64" else None, ())  # argmin: int64
        if tensor is not None and _is_none(operands.get(1, *_AXIS)):
            return AbstractTensor(operands.kind, dtype, ())
        return reduction(operands)

    return transfer


def _clip(operands: Operands) -> AbstractValue | None:
    """``clip(x, min, max)``: the shape of ``x``; a float bound makes an integer tensor float32."""
    tensor = operands.tensor(0, "input", "x")
    if tensor is None:
        return None
    dtype = tensor.dtype
    for bound in (operands.get(1, "min"), operands.get(2, "max")):
        if _is_none(bound):
            continue
        dtype = _with_number(dtype, bound) if isinstance(bound, AbstractScalar) and dtype != "bool" else None
    return AbstractTensor(operands.kind, dtype, tensor.shape)


_FLOAT_FUNCTIONS = (
    "exp", "log", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "sin", "cos", "erf", "softmax", "log_softmax",
    "gelu", "silu", "reciprocal", "exp2", "softplus", "mish", "elu", "selu", "hardswish", "hardsigmoid",
)  # fmt: skip
_SAME_FUNCTIONS = (
    "abs", "neg", "negative", "relu", "relu6", "square", "sign", "floor", "ceil", "round", "stop_gradient",
    "leaky_relu", "dropout", "tril", "triu", "flip", "roll",
)  # fmt: skip
_PREDICATES = ("isnan", "isinf", "isfinite", "logical_not")
_ARITHMETIC = ("add", "mul", "multiply", "maximum", "minimum", "pow", "floor_divide")
_COMPARISONS = (
    "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "eq", "ne", "gt", "ge", "lt", "le",
    "logical_and", "logical_or", "logical_xor",
)  # fmt: skip

FUNCTIONS: dict[str, Transfer] = {
    **{name: _same(floats_only=True) for name in _FLOAT_FUNCTIONS},
    **{name: _same() for name in _SAME_FUNCTIONS},
    **{name: _same("bool") for name in _PREDICATES},
    **{name: _binary() for name in _ARITHMETIC},
    **{name: _binary(of_bools=False) for name in ("sub", "subtract")},
    **{name: _clip for name in ("clip", "clamp")},
    **{name: _binary("bool") for name in _COMPARISONS},
    "div": _binary(integers_to_float=True),
    "divide": _binary(integers_to_float=True),
    "true_divide": _binary(integers_to_float=True),
    **{name: _reduction(widens=True) for name in ("sum", "prod")},
    **{name: _reduction() for name in ("amax", "amin")},
    "mean": _reduction(),
    **{name: _reduction("bool") for name in ("any", "all")},
    "argmax": _index_reduction("int64"),
    "argmin": _index_reduction("int32"),
    "matmul": _matmul,
    "reshape": _reshape,
    "permute": _transpose,
    "transpose": _transpose,
    "swapaxes": _swapaxes,
    "expand_dims": _expand_dims,
    "unsqueeze": _expand_dims,
    "squeeze": _squeeze,
    "concat": _joined(new_axis=False),
    "cat": _joined(new_axis=False),
    "stack": _joined(new_axis=True),
    "cast": _cast(1, "dtype"),
    "zeros": _created("float32", 1),
    "ones": _created("float32", 1),
    "full": _created(None, 2),
    "zeros_like": _like,
    "ones_like": _like,
    "flatten": _flatten(start_default=1),
}
"""Functions of ``mindspore.ops`` and ``mindspore.mint``, by name."""


def _method_transpose(operands: Operands) -> AbstractValue | None:
    """``x.transpose(2, 0, 1)`` or ``x.transpose((1, 0))`` permutes the axes; in graph code so does
    ``x.transpose(0, 1)``, two numbers being the whole permutation (where PyNative swaps them:
    measured, ``transpose-two-axes`` in ``pytorch-differences.json``); by keyword,
    ``x.transpose(dim0=0, dim1=1)`` swaps in both modes."""
    if "dim0" in operands.keywords or "dim1" in operands.keywords:
        return _swapaxes(operands)
    return _transpose(operands)


_NOT_METHODS = (
    "zeros", "ones", "full", "concat", "cat", "stack", "zeros_like", "ones_like", "cast", "log_softmax", "gelu",
    "silu", "exp2", "softplus", "mish", "elu", "selu", "hardswish", "hardsigmoid", "relu", "relu6",
    "stop_gradient", "leaky_relu", "dropout",
)  # fmt: skip
METHODS: dict[str, Transfer] = {
    **{name: FUNCTIONS[name] for name in FUNCTIONS if name not in _NOT_METHODS},
    **{name: _same() for name in ("copy", "contiguous")},
    "view": _reshape,
    "transpose": _method_transpose,
    "astype": _cast(1, "dtype"),
    "to": _cast(1, "dtype"),
    "flatten": _flatten(start_default=0),
}
"""Tensor methods, by name: the receiver is the first operand."""

_PRIMITIVE_FUNCTIONS = {
    "Exp": "exp", "Log": "log", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "Sigmoid": "sigmoid", "Tanh": "tanh", "Erf": "erf",
    "Abs": "abs", "Neg": "neg", "Square": "square", "Sign": "sign", "Floor": "floor", "ReLU": "relu", "ReLU6": "relu6",
    "GeLU": "gelu", "Add": "add", "Sub": "sub", "Mul": "mul", "Maximum": "maximum", "Minimum": "minimum",
    "Pow": "pow", "Div": "div", "Equal": "equal", "NotEqual": "not_equal", "Greater": "greater",
    "GreaterEqual": "greater_equal", "Less": "less", "LessEqual": "less_equal", "LogicalAnd": "logical_and",
    "LogicalOr": "logical_or", "LogicalNot": "logical_not", "IsNan": "isnan", "IsInf": "isinf",
    "Softmax": "softmax", "LogSoftmax": "log_softmax",
}  # fmt: skip

PRIMITIVES: dict[str, Transfer] = {
    **{primitive: FUNCTIONS[function] for primitive, function in _PRIMITIVE_FUNCTIONS.items()},
    "RealDiv": _binary(),  # integers stay integers
    "ReduceSum": _reduction(keep_position=None),
    "ReduceMean": _reduction(keep_position=None),
    "ReduceMax": _reduction(keep_position=None),
    "ReduceMin": _reduction(keep_position=None),
    "ReduceProd": _reduction(keep_position=None),
    "ReduceAll": _reduction("bool", keep_position=None),
    "ReduceAny": _reduction("bool", keep_position=None),
    "MatMul": _primitive_matmul(batch=False),
    "BatchMatMul": _primitive_matmul(batch=True),
    "Reshape": _reshape,
    "Transpose": _transpose,
    "ExpandDims": _expand_dims,
    "Cast": _cast(1, "dtype"),
    "ZerosLike": _like,
    "OnesLike": _like,
}
"""Primitives by class name, called with their constructor's keywords among the operands' keywords
(``ReduceSum(keep_dims=True)(x, 1)`` is ``x``, ``1``, ``keep_dims=True``)."""


_NOT_MINT = ("stop_gradient", "subtract", "multiply", "true_divide", "expand_dims", "cast")
MINT_FUNCTIONS: dict[str, Transfer] = {
    **{name: FUNCTIONS[name] for name in FUNCTIONS if name not in _NOT_MINT},
    "transpose": _swapaxes,
    "flatten": _flatten(start_default=0),
    "argmin": _index_reduction(None),  # not measured: MindSpore 2.10 has no CPU kernel of it
}
"""Functions of ``mindspore.mint`` and ``mindspore.mint.nn.functional``: PyTorch's signatures where
they differ from ``ops``'."""


def function_result(name: str, operands: Operands, mint: bool = False) -> AbstractValue | None:
    transfer = (MINT_FUNCTIONS if mint else FUNCTIONS).get(name)
    return transfer(operands) if transfer is not None else None


def method_result(name: str, operands: Operands) -> AbstractValue | None:
    transfer = METHODS.get(name)
    return transfer(operands) if transfer is not None else None


def primitive_result(name: str, construction: Construction, operands: Operands) -> AbstractValue | None:
    """What a primitive instance gives: its constructor's keywords join the call's (``keep_dims``,
    ``transpose_b``); a positional constructor argument is read as its keyword where named here."""
    transfer = PRIMITIVES.get(name)
    if transfer is None:
        return None
    constructed = {key: value for key, value in construction.keywords}
    if construction.args and name.startswith("Reduce"):
        constructed.setdefault("keep_dims", construction.args[0])
    if construction.args and name in ("MatMul", "BatchMatMul"):
        constructed.setdefault("transpose_a", construction.args[0])
        if len(construction.args) > 1:
            constructed.setdefault("transpose_b", construction.args[1])
    return transfer(Operands(operands.args, {**operands.keywords, **constructed}, operands.kind))


class _Unknown:
    """An index item whose value is not known (a graph value, a tensor)."""


UNKNOWN_INDEX = _Unknown()
IndexItem = object
"""An item of a constant index: an int, a ``slice``, None (a new axis), ``...``, or
:data:`UNKNOWN_INDEX`."""


def indexed_shape(shape: Shape, items: Sequence[IndexItem]) -> Shape:
    """The shape of ``x[items]`` for ``x`` of ``shape``: an int drops an axis, a slice keeps it
    (its size where the bounds and the axis are known), None adds one, ``...`` stands for the
    axes no other item takes. None where an item is not known (a tensor index gathers)."""
    if shape is None or any(item is UNKNOWN_INDEX for item in items):
        return None
    taking = [i for i in items if i is not None and i is not Ellipsis]
    if len(taking) > len(shape) or list(items).count(Ellipsis) > 1:
        return None
    dims = list(shape)
    result: list[int | None] = []
    position = 0
    for item in items:
        if item is None:
            result.append(1)
        elif item is Ellipsis:
            skipped = len(shape) - len(taking)
            result.extend(dims[position : position + skipped])
            position += skipped
        elif isinstance(item, slice):
            size = dims[position]
            result.append(None if size is None else len(range(size)[item]))
            position += 1
        elif isinstance(item, int):
            size = dims[position]
            if size is not None and not -size <= item < size:
                return None
            position += 1
        else:
            return None
    return tuple(result + dims[position:])
