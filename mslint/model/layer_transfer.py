"""Transfer functions of MindSpore's ``nn`` layers: the output shape and dtype of ``layer(x)``
from the arguments the layer was built with (:class:`~mslint.model.abstract.Construction`) and
the input's.

``nn.Dense(64, 10)`` maps ``[..., 64]`` to ``[..., 10]``; ``nn.Conv2d(3, 16, 3, stride=2)``
maps ``[N, 3, H, W]`` to ``[N, 16, H', W']`` by its ``pad_mode`` (``"same"`` by default:
``ceil(H / stride)``); pooling likewise (``"valid"`` by default); norms, dropout and activations
keep the shape; ``nn.Embedding(vocab, 32)`` adds an axis of 32 floats; ``nn.Flatten`` keeps the
first axis. A layer built with an argument mslint does not know gives a shape with that part
unknown, and one not listed here gives None.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from mslint.model.abstract import AbstractScalar, AbstractTensor, AbstractValue, Construction, Kind, literal
from mslint.model.transfer import Operands, function_result

LayerTransfer = Callable[[Construction, AbstractTensor, Kind], "AbstractValue | None"]
_ABSENT = object()


def _argument(construction: Construction, position: int | None, keyword: str, default: object = _ABSENT) -> object:
    """A constructor argument's constant value: the default where it was not given; None where it
    was given a value not known (or has no default)."""
    value = construction.get(position, keyword)
    if value is None:
        return None if default is _ABSENT else default
    return value.value if isinstance(value, AbstractScalar) and value.kind is Kind.CONSTANT else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _pair(value: object, count: int) -> tuple[int | None, ...]:
    """A kernel size, a stride, a dilation: one int for every spatial axis, or one each."""
    if isinstance(value, (tuple, list)) and len(value) == count:
        return tuple(_int(v) for v in value)
    return (_int(value),) * count


def _keeps(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue:
    return AbstractTensor(kind, tensor.dtype, tensor.shape)


def _dense(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
    out = _int(_argument(construction, 1, "out_channels"))
    if tensor.shape is None or not tensor.shape:
        return AbstractTensor(kind, tensor.dtype)
    return AbstractTensor(kind, tensor.dtype, (*tensor.shape[:-1], out))


def _spatial_size(
    size: int | None, kernel: int | None, stride: int | None, mode: object, padding: int | None, dilation: int | None
) -> int | None:
    """One spatial axis's output size, as MindSpore's convolutions and poolings compute it."""
    if size is None or stride is None or not stride:
        return None
    if mode == "same":
        return math.ceil(size / stride)
    if kernel is None or dilation is None:
        return None
    pad = 0 if mode == "valid" else padding
    if pad is None or mode not in ("valid", "pad"):
        return None
    return (size + 2 * pad - dilation * (kernel - 1) - 1) // stride + 1


def _convolution(spatial: int) -> LayerTransfer:
    """``nn.Conv1d`` and ``nn.Conv2d``: ``[N, C, *spatial]`` to ``[N, out_channels, *spatial']``."""

    def transfer(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
        shape = tensor.shape
        if shape is None or len(shape) != spatial + 2:
            return AbstractTensor(kind, tensor.dtype)
        out = _int(_argument(construction, 1, "out_channels"))
        kernels = _pair(_argument(construction, 2, "kernel_size"), spatial)
        strides = _pair(_argument(construction, 3, "stride", 1), spatial)
        mode = _argument(construction, 4, "pad_mode", "same")
        padding = _argument(construction, 5, "padding", 0)
        paddings = (
            _pair(padding, spatial) if not isinstance(padding, (tuple, list)) or len(padding) == spatial else None
        )
        dilations = _pair(_argument(construction, 6, "dilation", 1), spatial)
        if paddings is None:
            return AbstractTensor(kind, tensor.dtype, (shape[0], out) + (None,) * spatial)
        sizes = tuple(map(_spatial_size, shape[2:], kernels, strides, (mode,) * spatial, paddings, dilations))
        return AbstractTensor(kind, tensor.dtype, (shape[0], out, *sizes))

    return transfer


def _pooling(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
    """``nn.MaxPool2d(kernel_size=1, stride=1, pad_mode="valid")`` and ``nn.AvgPool2d``."""
    shape = tensor.shape
    if shape is None or len(shape) not in (3, 4):
        return AbstractTensor(kind, tensor.dtype)
    kernels = _pair(_argument(construction, 0, "kernel_size", 1), 2)
    strides = _pair(_argument(construction, 1, "stride", 1), 2)
    mode = _argument(construction, 2, "pad_mode", "valid")
    if isinstance(mode, str):
        mode = mode.lower()
    if mode not in ("valid", "same"):
        return AbstractTensor(kind, tensor.dtype, (*shape[:-2], None, None))
    sizes = tuple(map(_spatial_size, shape[-2:], kernels, strides, (mode,) * 2, (0, 0), (1, 1)))
    return AbstractTensor(kind, tensor.dtype, shape[:-2] + sizes)


def _embedding(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
    size = _int(_argument(construction, 1, "embedding_size"))
    return AbstractTensor(kind, "float32", None if tensor.shape is None else (*tensor.shape, size))


def _flatten(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
    start, end = _argument(construction, 0, "start_dim", 1), _argument(construction, 1, "end_dim", -1)
    keywords = {"start_dim": literal(start), "end_dim": literal(end)}
    return function_result("flatten", Operands([tensor], keywords, kind))


def _softmax(construction: Construction, tensor: AbstractTensor, kind: Kind) -> AbstractValue | None:
    return AbstractTensor(
        kind, tensor.dtype if tensor.dtype in ("float16", "float32", "float64") else None, tensor.shape
    )


_KEEPING = (
    "ReLU", "ReLU6", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "HSwish", "HSigmoid", "Mish", "ELU", "PReLU",
    "Dropout", "Dropout1d", "Dropout2d", "Identity", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm",
    "GroupNorm", "InstanceNorm2d",
)  # fmt: skip

LAYERS: dict[str, LayerTransfer] = {
    **{name: _keeps for name in _KEEPING},
    "Softmax": _softmax,
    "LogSoftmax": _softmax,
    "Dense": _dense,
    "Conv1d": _convolution(1),
    "Conv2d": _convolution(2),
    "MaxPool2d": _pooling,
    "AvgPool2d": _pooling,
    "Embedding": _embedding,
    "Flatten": _flatten,
}
"""``mindspore.nn`` layers by class name."""


def layer_result(name: str, construction: Construction, operand: AbstractValue, kind: Kind) -> AbstractValue | None:
    """The value of ``layer(x)`` for a layer of class ``name`` built with ``construction``."""
    transfer = LAYERS.get(name)
    if transfer is None or not isinstance(operand, AbstractTensor):
        return None
    return transfer(construction, operand, kind)
