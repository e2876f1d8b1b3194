"""Static-shape alternatives, and dynamic-shape operators outside graph code."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops


def label_vocabulary(labels):
    """Runs in the data pipeline, not in a graph."""
    values, _ = ops.unique(Tensor(labels))
    return values


class MaskWithWhere(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        return ops.where(x > 2, x, ops.zeros_like(x))


class UniqueInInit(nn.Cell):  # mslint: inputs=float32[8]
    def __init__(self):
        super().__init__()
        values, _ = ops.unique(Tensor(np.array([3, 1, 3, 2]), ms.int32))
        self.classes = int(values.shape[0])

    def construct(self, x):
        return x * self.classes


class MultiplyByMask(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        mask = (x > 2).astype(x.dtype)
        return x * mask
