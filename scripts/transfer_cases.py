"""Random cases of the op transfer functions (:mod:`mslint.model.transfer`,
:mod:`mslint.model.layer_transfer`), run on the installed MindSpore and compared with mslint.

Every entry of ``FUNCTIONS`` (called as ``mindspore.ops.<name>``), ``MINT_FUNCTIONS``
(``mindspore.mint.<name>``, else ``mindspore.mint.nn.functional.<name>``), ``METHODS`` (Tensor
methods), ``PRIMITIVES`` (``ops.<Name>(...)(...)``) and ``LAYERS`` (``nn.<Name>(...)(x)``) gets
:data:`CASES_PER_ENTRY` cases drawn from a seed of its own (so that adding an entry changes no
other entry's cases): inputs of rank 0 to 4, dimensions 1 to 5, the dtypes the op takes, and
arguments of every form (an axis as an int, negative, a tuple or None; ``keepdims``; shapes with
-1; permutations; kernels, strides and pad modes). Each case runs in PyNative mode on CPU; one
MindSpore raises on is skipped. mslint *claims* the dtype and the dimensions it does not leave
None: a case agrees where every claim holds, and counts in the agreement only where it claims
something; its coverage is the share of cases where it claims the whole shape and the dtype.

Shared by ``tests/test_transfer_functions.py`` and ``scripts/generate_transfer_table.py``, which
writes ``mslint/data/transfer-disagreements-<version>.json``.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint.model.abstract import (
    AbstractDtype,
    AbstractTensor,
    AbstractValue,
    Construction,
    Kind,
    literal,
    sequence,
)
from mslint.model.layer_transfer import LAYERS, layer_result
from mslint.model.transfer import (
    FUNCTIONS,
    METHODS,
    MINT_FUNCTIONS,
    PRIMITIVES,
    Operands,
    function_result,
    method_result,
    primitive_result,
)

SEED = 39
CASES_PER_ENTRY = 24
DTYPES = ("float16", "float32", "int32", "int64", "bool")
FLOATS = ("float16", "float32")
NUMBERS = ("float16", "float32", "int32", "int64")
DATA = Path(__file__).resolve().parent.parent / "mslint" / "data"
FAMILIES = ("ops", "mint", "Tensor", "primitive", "nn")


@dataclass(frozen=True)
class Spec:
    """A tensor operand: its dtype and shape (filled with ones, which every op here takes)."""

    dtype: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Dtype:
    """``mindspore.<name>``, given to a cast or a creation."""

    name: str


Keywords = tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class Case:
    family: str
    """``ops``, ``mint``, ``Tensor`` (a method: the receiver is ``args[0]``), ``primitive`` or ``nn``."""
    name: str
    args: tuple[object, ...]
    keywords: Keywords = ()
    built_args: tuple[object, ...] = ()
    """A primitive's or a layer's constructor's arguments."""
    built_keywords: Keywords = ()

    def text(self) -> str:
        call = _arguments(self.args[1:] if self.family == "Tensor" else self.args, self.keywords)
        if self.family == "Tensor":
            return f"{_text(self.args[0])}.{self.name}({call})"
        if self.family in ("primitive", "nn"):
            prefix = "ops" if self.family == "primitive" else "nn"
            return f"{prefix}.{self.name}({_arguments(self.built_args, self.built_keywords)})({call})"
        namespace = "mint.nn.functional" if self.family == "mint" and not _in_mint(self.name) else self.family
        return f"{namespace}.{self.name}({call})"


def _text(value: object) -> str:
    if isinstance(value, Spec):
        return f"{value.dtype}[{','.join(map(str, value.shape))}]"
    if isinstance(value, Dtype):
        return f"mindspore.{value.name}"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(_text, value)) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        return "[" + ", ".join(map(_text, value)) + "]"
    return repr(value)


def _arguments(args: Sequence[object], keywords: Keywords) -> str:
    return ", ".join([*map(_text, args), *(f"{name}={_text(value)}" for name, value in keywords)])


def _in_mint(name: str) -> bool:
    import mindspore.mint

    return hasattr(mindspore.mint, name)


# Drawing operands.


def _shape(rng: random.Random, low: int = 0, high: int = 4) -> tuple[int, ...]:
    return tuple(rng.randint(1, 5) for _ in range(rng.randint(low, high)))


def _tensor(rng: random.Random, dtypes: Sequence[str] = DTYPES, low: int = 0, high: int = 4) -> Spec:
    return Spec(rng.choice(dtypes), _shape(rng, low, high))


def _axis(rng: random.Random, rank: int) -> int:
    """An axis of a tensor of ``rank``, negative half of the time (0 or -1 for a 0-d one)."""
    axis = rng.randrange(max(rank, 1))
    return axis - max(rank, 1) if rng.random() < 0.5 else axis


def _axes(rng: random.Random, rank: int) -> object:
    """What a reduction's ``axis`` is given: None, an int, a tuple of distinct axes, or ``()``."""
    form = rng.random()
    if form < 0.2:
        return None
    if form < 0.55 or rank == 0:
        return _axis(rng, rank)
    if form < 0.6:
        return ()
    chosen = rng.sample(range(rank), rng.randint(1, rank))
    return tuple(a - rank if rng.random() < 0.3 else a for a in chosen)


def _broadcastable(rng: random.Random, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts with ``shape``: some leading axes dropped, some sizes 1."""
    kept = shape[rng.randint(0, len(shape)) :] if rng.random() < 0.4 else shape
    return tuple(1 if rng.random() < 0.25 else d for d in kept)


def _number(rng: random.Random) -> object:
    return rng.choice([2, 3, 1.5, 0.5, True])


Drawn = tuple[tuple[object, ...], Keywords]
"""A call's positional arguments (the tensor first, where there is one) and keywords."""
Draw = Callable[[random.Random, str], Drawn]


def _unary(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng, FLOATS if rng.random() < 0.5 else DTYPES)  # most of them take floats only
    extra: dict[str, Callable[[], Drawn]] = {
        "clip": lambda: ((x, rng.choice([0, 0.5, None]), rng.choice([2, 1.5])), ()),
        "leaky_relu": lambda: ((x, 0.1), ()),
        "elu": lambda: ((x, 1.0), ()),
        "dropout": lambda: ((x,), (("p", 0.5),)),
        "tril": lambda: ((_tensor(rng, low=2), rng.choice([0, 1, -1])), ()),
        "flip": lambda: ((x, (_axis(rng, len(x.shape)),)), ()),
        "roll": lambda: ((x, 1, _axis(rng, len(x.shape))), ()),
        "softmax": lambda: ((x, _axis(rng, len(x.shape))) if rng.random() < 0.5 else (x,), ()),
    }
    aliases = {"clamp": "clip", "triu": "tril", "log_softmax": "softmax"}
    form = extra.get(aliases.get(name, name))
    return form() if form is not None else ((x,), ())


def _binary(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    if rng.random() < 0.3:
        number = _number(rng)
        return ((x, number) if rng.random() < 0.7 else (number, x)), ()
    return (x, Spec(rng.choice(DTYPES), _broadcastable(rng, x.shape))), ()


def _reduction(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    axis, keep = _axes(rng, len(x.shape)), rng.random() < 0.5
    form = rng.randrange(3)
    return ((x,), (x, axis), (x, axis, keep))[form], ()


def _argmax(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng, NUMBERS)
    axis = None if rng.random() < 0.3 else _axis(rng, len(x.shape))
    return ((x,), (x, axis), (x, axis, rng.random() < 0.5))[rng.randrange(3)], ()


def _matmul(rng: random.Random, name: str) -> Drawn:
    inner, dtype = rng.randint(1, 5), rng.choice(NUMBERS)
    left = (*_shape(rng, 0, 2), rng.randint(1, 5), inner)[-rng.randint(1, 4) :]
    right = (*_broadcastable(rng, left[:-2]), inner, rng.randint(1, 5))[-rng.randint(1, 4) :]
    if len(left) == 1:
        left = (inner,)
    if len(right) == 1:
        right = (inner,)
    return (Spec(dtype, left), Spec(rng.choice((dtype, *NUMBERS)), right)), ()


def _target_shape(rng: random.Random, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape of as many elements as ``shape``, one of its sizes -1 a third of the time."""
    count, sizes = math.prod(shape), list[int]()
    while count > 1 and len(sizes) < 3:
        size = rng.choice([d for d in range(1, count + 1) if count % d == 0])
        sizes.append(size)
        count //= size
    if count > 1:
        sizes.append(count)
    sizes += [1] * rng.randint(0, 1)
    rng.shuffle(sizes)
    if sizes and rng.random() < 0.35:
        sizes[rng.randrange(len(sizes))] = -1
    return tuple(sizes)


def _reshape(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    return (x, _target_shape(rng, x.shape)), ()


def _permutation(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    order = list(range(len(x.shape)))
    rng.shuffle(order)
    return (x, tuple(a - len(order) if rng.random() < 0.2 else a for a in order)), ()


def _two_axes(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng, low=1)
    return (x, _axis(rng, len(x.shape)), _axis(rng, len(x.shape))), ()


def _expand_dims(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    return (x, rng.randint(-len(x.shape) - 1, len(x.shape))), ()


def _squeeze(rng: random.Random, name: str) -> Drawn:
    x = Spec(rng.choice(DTYPES), tuple(1 if rng.random() < 0.4 else d for d in _shape(rng)))
    axis = _axes(rng, len(x.shape))
    return ((x,) if axis is None and rng.random() < 0.5 else (x, axis)), ()


def _joined(rng: random.Random, name: str) -> Drawn:
    shape, count = _shape(rng, 1 if name != "stack" else 0), rng.randint(1, 3)
    axis = _axis(rng, len(shape) + (name == "stack"))
    position = axis % (len(shape) + (name == "stack"))
    items = []
    for _ in range(count):
        sizes = list(shape)
        if name != "stack":
            sizes[position] = rng.randint(1, 5)
        items.append(Spec(rng.choice(DTYPES), tuple(sizes)))
    tensors = tuple(items) if rng.random() < 0.5 else list(items)
    return ((tensors, axis) if axis or rng.random() < 0.5 else (tensors,)), ()


def _cast(rng: random.Random, name: str) -> Drawn:
    return (_tensor(rng), Dtype(rng.choice(DTYPES))), ()


def _created(rng: random.Random, name: str) -> Drawn:
    shape, dtype = _shape(rng), Dtype(rng.choice(DTYPES))
    value: tuple[object, ...] = (rng.choice([1, 1.5, True]),) if name == "full" else ()
    if rng.random() < 0.3:
        return (shape, *value), ()
    if name == "full" or rng.random() < 0.5:
        return (shape, *value), (("dtype", dtype),)
    return (shape, dtype), ()


def _like(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    return (x,), ((("dtype", Dtype(rng.choice(DTYPES))),) if rng.random() < 0.4 else ())


def _flatten(rng: random.Random, name: str) -> Drawn:
    x = _tensor(rng)
    keywords = [("start_dim", _axis(rng, len(x.shape)))] if rng.random() < 0.5 else []
    if rng.random() < 0.4:
        keywords.append(("end_dim", _axis(rng, len(x.shape))))
    return (x,), tuple(keywords)


GROUPS: dict[Draw, tuple[str, ...]] = {
    _unary: (
        "exp", "log", "log1p", "sqrt", "rsqrt", "sigmoid", "tanh", "sin", "cos", "erf", "softmax", "log_softmax",
        "gelu", "silu", "reciprocal", "exp2", "softplus", "mish", "elu", "selu", "hardswish", "hardsigmoid",
        "abs", "neg", "negative", "relu", "relu6", "square", "sign", "floor", "ceil", "round", "clip", "clamp",
        "copy", "contiguous", "stop_gradient", "leaky_relu", "dropout", "tril", "triu", "flip", "roll",
        "isnan", "isinf", "isfinite", "logical_not",
    ),
    _binary: (
        "add", "sub", "subtract", "mul", "multiply", "maximum", "minimum", "pow", "floor_divide", "div", "divide",
        "true_divide", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "eq", "ne", "gt",
        "ge", "lt", "le", "logical_and", "logical_or", "logical_xor",
    ),
    _reduction: ("sum", "prod", "amax", "amin", "mean", "any", "all"),
    _argmax: ("argmax", "argmin"),
    _matmul: ("matmul",),
    _reshape: ("reshape", "view"),
    _permutation: ("permute", "transpose"),
    _two_axes: ("swapaxes",),
    _expand_dims: ("expand_dims", "unsqueeze"),
    _squeeze: ("squeeze",),
    _joined: ("concat", "cat", "stack"),
    _cast: ("cast", "astype", "to"),
    _created: ("zeros", "ones", "full"),
    _like: ("zeros_like", "ones_like"),
    _flatten: ("flatten",),
}  # fmt: skip
"""The cases of each op by what it does: this module's own reading of MindSpore's signatures."""
DRAWS = {name: draw for draw, names in GROUPS.items() for name in names}
MINT_DRAWS = {**DRAWS, "transpose": _two_axes}
"""``mint.transpose(input, dim0, dim1)`` swaps two axes, as PyTorch's."""


def _method_draw(name: str) -> Draw:
    """A method's arguments: the function's, with the sizes or axes of ``reshape``, ``view``,
    ``permute`` and ``transpose`` one by one half of the time (``x.view(2, 3)``); not two axes of
    ``transpose``, which PyNative swaps and graph code reads as the whole permutation (mslint's
    reading, measured in graph mode by ``pytorch-differences.json``)."""
    draw = DRAWS[name]

    def method(rng: random.Random, name: str) -> Drawn:
        args, keywords = draw(rng, name)
        while not isinstance(args[0], Spec):  # a number first: only a function takes that
            args, keywords = draw(rng, name)
        axes = args[1] if len(args) > 1 else None
        swaps = name == "transpose" and isinstance(axes, tuple) and len(axes) == 2
        rearranges = name in ("reshape", "view", "permute", "transpose") and not swaps
        if rearranges and isinstance(axes, tuple) and rng.random() < 0.5:
            return (args[0], *axes), keywords
        return args, keywords

    return method


# Primitives: (constructor's arguments, keywords), then the call's.

Built = tuple[tuple[object, ...], Keywords, tuple[object, ...]]


def _reduce_primitive(rng: random.Random, name: str) -> Built:
    x = _tensor(rng, NUMBERS if name not in ("ReduceAll", "ReduceAny") else ("bool",))
    keep = rng.random() < 0.5
    built: tuple[tuple[object, ...], Keywords] = rng.choice([((), ()), ((keep,), ()), ((), (("keep_dims", keep),))])
    axis = _axes(rng, len(x.shape))
    return (*built, (x,) if axis is None else (x, axis))


def _matmul_primitive(rng: random.Random, name: str) -> Built:
    transpose_a, transpose_b, dtype = rng.random() < 0.5, rng.random() < 0.5, rng.choice(NUMBERS)
    batch = _shape(rng, 1, 2) if name == "BatchMatMul" else ()
    m, k, n = (rng.randint(1, 5) for _ in range(3))
    left = (*batch, *((k, m) if transpose_a else (m, k)))
    right = (*_broadcastable(rng, batch)[: len(batch)], *((n, k) if transpose_b else (k, n)))
    if name == "BatchMatMul" and len(right) < 3:
        right = (*batch, *right[-2:])
    built: tuple[tuple[object, ...], Keywords] = rng.choice(
        [((transpose_a, transpose_b), ()), ((), (("transpose_a", transpose_a), ("transpose_b", transpose_b)))]
    )
    return (*built, (Spec(dtype, left), Spec(dtype, right)))


def _softmax_primitive(rng: random.Random, name: str) -> Built:
    x = _tensor(rng, FLOATS, low=1)
    return ((_axis(rng, len(x.shape)),) if rng.random() < 0.5 else ()), (), (x,)


def _function_primitive(function: str) -> Callable[[random.Random, str], Built]:
    """A primitive built without arguments and called as ``ops.<function>`` without options."""

    def draw(rng: random.Random, name: str) -> Built:
        if DRAWS[function] is _unary:
            return (), (), (_tensor(rng),)
        args, _ = DRAWS[function](rng, function)
        return (), (), args

    return draw


PRIMITIVE_FUNCTIONS = {
    "Exp": "exp", "Log": "log", "Sqrt": "sqrt", "Rsqrt": "rsqrt", "Sigmoid": "sigmoid", "Tanh": "tanh", "Erf": "erf",
    "Abs": "abs", "Neg": "neg", "Square": "square", "Sign": "sign", "Floor": "floor", "ReLU": "relu", "ReLU6": "relu6",
    "GeLU": "gelu", "Add": "add", "Sub": "sub", "Mul": "mul", "Maximum": "maximum", "Minimum": "minimum",
    "Pow": "pow", "Div": "div", "RealDiv": "div", "Equal": "equal", "NotEqual": "not_equal", "Greater": "greater",
    "GreaterEqual": "greater_equal", "Less": "less", "LessEqual": "less_equal", "LogicalAnd": "logical_and",
    "LogicalOr": "logical_or", "LogicalNot": "logical_not", "IsNan": "isnan", "IsInf": "isinf",
    "Reshape": "reshape", "Transpose": "transpose", "ExpandDims": "expand_dims", "Cast": "cast",
    "ZerosLike": "zeros_like", "OnesLike": "ones_like",
}  # fmt: skip
PRIMITIVE_DRAWS: dict[str, Callable[[random.Random, str], Built]] = {
    **{name: _function_primitive(function) for name, function in PRIMITIVE_FUNCTIONS.items()},
    **{f"Reduce{name}": _reduce_primitive for name in ("Sum", "Mean", "Max", "Min", "Prod", "All", "Any")},
    "MatMul": _matmul_primitive,
    "BatchMatMul": _matmul_primitive,
    "Softmax": _softmax_primitive,
    "LogSoftmax": _softmax_primitive,
}


# Layers: (constructor's arguments, keywords, the input).


def _image(rng: random.Random, rank: int, dtypes: Sequence[str] = ("float32",)) -> Spec:
    return Spec(rng.choice(dtypes), tuple(rng.randint(1, 5) for _ in range(2)) + _shape(rng, rank - 2, rank - 2))


def _keeping_layer(rng: random.Random, name: str) -> Built:
    if name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "InstanceNorm2d"):
        rank = {"BatchNorm1d": rng.choice([2, 3]), "BatchNorm3d": 5}.get(name, 4)
        x = Spec("float32", (rng.randint(2, 4), *(rng.randint(1, 5) for _ in range(rank - 1))))
        return (x.shape[1],), (), (x,)
    if name == "LayerNorm":
        x = _tensor(rng, ("float32",), low=1)
        return ((x.shape[-1],),), (), (x,)
    if name == "GroupNorm":
        groups = rng.randint(1, 3)
        x = Spec("float32", (rng.randint(1, 3), groups * rng.randint(1, 2), rng.randint(1, 4), rng.randint(1, 4)))
        return (groups, x.shape[1]), (), (x,)
    if name == "PReLU":
        return (), (), (_tensor(rng, ("float32",), low=1),)
    if name.startswith("Dropout"):
        image = {"Dropout1d": 3, "Dropout2d": 4}.get(name)
        x = _tensor(rng, FLOATS) if image is None else _image(rng, image, FLOATS)
        return (), (("p", 0.5),), (x,)
    return (), (), (_tensor(rng, FLOATS),)


def _softmax_layer(rng: random.Random, name: str) -> Built:
    x = _tensor(rng, FLOATS, low=1)
    return ((_axis(rng, len(x.shape)),) if rng.random() < 0.5 else ()), (), (x,)


def _dense(rng: random.Random, name: str) -> Built:
    x = _tensor(rng, ("float32",), low=1)
    return (x.shape[-1], rng.randint(1, 5)), (), (x,)


def _convolution(rng: random.Random, name: str) -> Built:
    x = _image(rng, 3 if name == "Conv1d" else 4)
    keywords: list[tuple[str, object]] = []
    mode = rng.choice(["same", "valid", "pad", None])
    if mode is not None:
        keywords.append(("pad_mode", mode))
    if mode == "pad":
        keywords.append(("padding", rng.randint(0, 2)))
    if rng.random() < 0.6:
        keywords.append(("stride", rng.randint(1, 3)))
    if rng.random() < 0.2:
        keywords.append(("dilation", 2))
    return (x.shape[1], rng.randint(1, 5), rng.randint(1, 3)), tuple(keywords), (x,)


def _pooling(rng: random.Random, name: str) -> Built:
    x = _image(rng, rng.choice([3, 4]) if rng.random() < 0.3 else 4)
    kernel = rng.randint(1, 3)
    keywords: list[tuple[str, object]] = [("stride", rng.randint(1, 3))] if rng.random() < 0.6 else []
    if rng.random() < 0.6:
        keywords.append(("pad_mode", rng.choice(["same", "valid", "SAME", "VALID"])))
    return ((kernel,) if rng.random() < 0.5 else ()), (("kernel_size", kernel), *keywords), (x,)


def _embedding(rng: random.Random, name: str) -> Built:
    return (6, rng.randint(1, 5)), (), (_tensor(rng, ("int32", "int64")),)


def _flatten_layer(rng: random.Random, name: str) -> Built:
    x = _tensor(rng, low=1)
    keywords = [("start_dim", _axis(rng, len(x.shape)))] if rng.random() < 0.5 else []
    if rng.random() < 0.4:
        keywords.append(("end_dim", _axis(rng, len(x.shape))))
    return (), tuple(keywords), (x,)


_KEEPING_LAYERS = (
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "HSwish", "HSigmoid", "Mish", "ELU", "PReLU",
    "Dropout", "Dropout1d", "Dropout2d", "Identity", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm",
    "GroupNorm", "InstanceNorm2d",
)  # fmt: skip
LAYER_DRAWS: dict[str, Callable[[random.Random, str], Built]] = {
    **{name: _keeping_layer for name in _KEEPING_LAYERS},
    "Softmax": _softmax_layer,
    "LogSoftmax": _softmax_layer,
    "Dense": _dense,
    "Conv1d": _convolution,
    "Conv2d": _convolution,
    "MaxPool2d": _pooling,
    "AvgPool2d": _pooling,
    "Embedding": _embedding,
    "Flatten": _flatten_layer,
}


def undrawn() -> list[str]:
    """The entries of mslint's tables that no draw here makes cases for."""
    tables = [("ops", FUNCTIONS, DRAWS), ("mint", MINT_FUNCTIONS, MINT_DRAWS), ("Tensor", METHODS, DRAWS)]
    missing = [f"{family}.{name}" for family, entries, draws in tables for name in entries if name not in draws]
    missing += [f"ops.{name}" for name in PRIMITIVES if name not in PRIMITIVE_DRAWS]
    return missing + [f"nn.{name}" for name in LAYERS if name not in LAYER_DRAWS]


def cases(seed: int = SEED, per_entry: int = CASES_PER_ENTRY) -> Iterator[Case]:
    """Every case, entry by entry, each entry's drawn from a seed of its own."""

    def draws(family: str, name: str) -> Iterator[random.Random]:
        rng = random.Random(f"{seed}:{family}:{name}")
        for _ in range(per_entry):
            yield rng

    for family, table, table_draws in (("ops", FUNCTIONS, DRAWS), ("mint", MINT_FUNCTIONS, MINT_DRAWS)):
        for name in sorted(set(table) & set(table_draws)):
            for rng in draws(family, name):
                yield Case(family, name, *table_draws[name](rng, name))
    for name in sorted(set(METHODS) & set(DRAWS)):
        method = _method_draw(name)
        for rng in draws("Tensor", name):
            yield Case("Tensor", name, *method(rng, name))
    for family, built_table, built_draws in (("primitive", PRIMITIVES, PRIMITIVE_DRAWS), ("nn", LAYERS, LAYER_DRAWS)):
        for name in sorted(set(built_table) & set(built_draws)):
            for rng in draws(family, name):
                built_args, built_keywords, args = built_draws[name](rng, name)
                yield Case(family, name, args, (), built_args, built_keywords)


# mslint's side.


def abstract(value: object) -> AbstractValue:
    if isinstance(value, Spec):
        return AbstractTensor(Kind.GRAPH, value.dtype, value.shape)
    if isinstance(value, Dtype):
        return AbstractDtype(Kind.CONSTANT, value.name)
    if isinstance(value, (tuple, list)):
        return sequence(type(value).__name__, tuple(map(abstract, value)))
    return literal(value)


def mslint_result(case: Case) -> AbstractValue | None:
    args = [abstract(a) for a in case.args]
    operands = Operands(args, {name: abstract(value) for name, value in case.keywords}, Kind.GRAPH)
    construction = Construction(
        tuple(map(abstract, case.built_args)), tuple((name, abstract(v)) for name, v in case.built_keywords)
    )
    if case.family == "Tensor":
        return method_result(case.name, operands)
    if case.family == "primitive":
        return primitive_result(case.name, construction, operands)
    if case.family == "nn":
        return layer_result(case.name, construction, args[0], Kind.GRAPH)
    return function_result(case.name, operands, mint=case.family == "mint")


# MindSpore's side.


def _mindspore_value(value: object, ms: Any, np: Any) -> object:
    if isinstance(value, Spec):
        fill = True if value.dtype == "bool" else 1
        return ms.Tensor(np.full(value.shape, fill, dtype=value.dtype))
    if isinstance(value, Dtype):
        return getattr(ms, value.name)
    if isinstance(value, (tuple, list)):
        return type(value)(_mindspore_value(v, ms, np) for v in value)
    return value


def mindspore_result(case: Case, ms: Any, np: Any) -> object:
    """What MindSpore's call gives (it raises where MindSpore refuses the case)."""
    args = [_mindspore_value(a, ms, np) for a in case.args]
    keywords = {name: _mindspore_value(v, ms, np) for name, v in case.keywords}
    built_args = [_mindspore_value(a, ms, np) for a in case.built_args]
    built_keywords = {name: _mindspore_value(v, ms, np) for name, v in case.built_keywords}
    if case.family == "Tensor":
        return getattr(args[0], case.name)(*args[1:], **keywords)
    if case.family == "primitive":
        return getattr(ms.ops, case.name)(*built_args, **built_keywords)(*args, **keywords)
    if case.family == "nn":
        return getattr(ms.nn, case.name)(*built_args, **built_keywords)(*args, **keywords)
    namespace = ms.ops if case.family == "ops" else ms.mint if _in_mint(case.name) else ms.mint.nn.functional
    return getattr(namespace, case.name)(*args, **keywords)


# Comparing.


def claim_text(value: AbstractValue | None) -> str:
    """mslint's claim: ``float32[2,?]``, ``?[*]`` for a dtype and a rank not known; ``none``."""
    if not isinstance(value, AbstractTensor):
        return "none" if value is None else type(value).__name__
    shape = "*" if value.shape is None else ",".join("?" if d is None else str(d) for d in value.shape)
    return f"{value.dtype or '?'}[{shape}]"


def result_text(value: object) -> str:
    """MindSpore's result as :func:`claim_text` writes a claim; read once it has run (PyNative runs
    kernels asynchronously: a kernel's error surfaces at the next synchronization)."""
    if type(value).__name__ not in ("Tensor", "Parameter", "StubTensor"):
        return type(value).__name__
    value.asnumpy()  # type: ignore[attr-defined]
    return f"{str(value.dtype).lower()}[{','.join(map(str, value.shape))}]"  # type: ignore[attr-defined]


def claims(claim: str) -> bool:
    """Whether mslint claims anything: a dtype, or a rank."""
    return claim.endswith("]") and claim != "?[*]"


def agrees(claim: str, result: str) -> bool:
    """Every part of the claim holds: its dtype, its rank, each dimension it gives."""
    claimed_dtype, _, claimed_shape = claim.partition("[")
    dtype, _, shape = result.partition("[")
    if claimed_dtype != "?" and claimed_dtype != dtype:
        return False
    if claimed_shape == "*]":
        return True
    claimed_dims, dims = claimed_shape[:-1].split(","), shape[:-1].split(",")
    return len(claimed_dims) == len(dims) and all(c in ("?", d) for c, d in zip(claimed_dims, dims))


def complete(claim: str) -> bool:
    return "?" not in claim and "*" not in claim and claim.endswith("]")


@dataclass
class Measure:
    """What the cases gave: counts, the disagreements, and the entries no case of which ran."""

    cases: int = 0
    skipped: int = 0
    claimed: int = 0
    agreeing: int = 0
    complete: int = 0
    seconds: float = 0.0
    disagreements: list[dict[str, str]] | None = None
    never_ran: list[str] | None = None

    @property
    def ran(self) -> int:
        return self.cases - self.skipped

    def figures(self) -> dict[str, Any]:
        return {
            "cases": self.cases,
            "ran": self.ran,
            "skipped (MindSpore raised)": self.skipped,
            "claimed": self.claimed,
            "agreeing": self.agreeing,
            "agreement": percent(self.agreeing, self.claimed),
            "fully claimed": self.complete,
            "coverage": percent(self.complete, self.ran),
        }


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def _drain(ms: Any) -> None:
    """Wait for what MindSpore still runs, so that no error of this case surfaces in the next."""
    for _ in range(3):
        try:
            ms.runtime.synchronize()
            return
        except Exception:
            continue


def measure(seed: int = SEED, per_entry: int = CASES_PER_ENTRY) -> Measure:
    """Run every case on the installed MindSpore (PyNative, CPU) and compare with mslint."""
    os.environ.setdefault("GLOG_v", "3")
    import mindspore as ms
    import numpy as np

    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    ms.set_seed(seed)
    started = time.perf_counter()
    found = Measure(disagreements=[])
    ran: set[str] = set()
    entries: set[str] = set()
    for case in cases(seed, per_entry):
        entry = f"{case.family}.{case.name}"
        entries.add(entry)
        found.cases += 1
        try:
            result = result_text(mindspore_result(case, ms, np))
        except Exception:  # MindSpore refuses the case: not counted
            found.skipped += 1
            _drain(ms)
            continue
        ran.add(entry)
        claim = claim_text(mslint_result(case))
        if not claims(claim):
            continue
        found.claimed += 1
        found.complete += complete(claim)
        if agrees(claim, result):
            found.agreeing += 1
        else:
            assert found.disagreements is not None
            found.disagreements.append({"case": case.text(), "mslint": claim, "mindspore": result})
    found.never_ran = sorted(entries - ran)
    found.seconds = time.perf_counter() - started
    return found


NEVER_RAN_WHY = (
    "MindSpore raised on every case of these entries: on CPU, MindSpore 2.10 has no kernel for them"
    " ('The kernel ... unregistered', nn.InstanceNorm2d's RuntimeError); their transfer functions are not measured"
)


def table_text(found: Measure, version: str, reasons: dict[str, str]) -> str:
    """The disagreements file: the figures, the entries no case of which ran, and each
    disagreement with its reason (from ``reasons``, by case; empty where none is written yet)."""
    rows = [
        {**d, "reason": reasons.get(d["case"], "")} for d in sorted(found.disagreements or [], key=lambda d: d["case"])
    ]
    head = {
        "mindspore": version,
        "seed": SEED,
        "cases per entry": CASES_PER_ENTRY,
        **found.figures(),
        "never ran": found.never_ran,
        "why never ran": NEVER_RAN_WHY,
    }
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    body = ",\n".join(f"    {json.dumps(row)}" for row in rows)
    return "{\n" + "\n".join(lines) + '\n  "disagreements": [\n' + body + ("\n" if rows else "") + "  ]\n}\n"


def table_path(version: str) -> Path:
    return DATA / f"transfer-disagreements-{version}.json"


def shipped(version: str) -> dict[str, Any]:
    path = table_path(version)
    data: dict[str, Any] = json.loads(path.read_text()) if path.is_file() else {"disagreements": []}
    return data


def reasons(version: str) -> dict[str, str]:
    return {row["case"]: row["reason"] for row in shipped(version)["disagreements"] if row.get("reason")}
