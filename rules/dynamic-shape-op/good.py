"""Static-shape alternatives, and dynamic-shape operators outside graph code."""

import numpy as np

import mindspore as ms
from mindspore import Tensor, mint, nn, ops


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


class ConstantAxes(nn.Cell):  # mslint: inputs=float32[4,6]
    def __init__(self, axis=1):
        super().__init__()
        self.axis = axis
        self.reduce_sum = ops.ReduceSum(keep_dims=True)
        self.transpose = ops.Transpose()

    def construct(self, x):
        last = x.sum(axis=-1)
        by_attribute = ops.mean(x, self.axis) + x.amax(self.axis) + ops.max(x, 1)[0]
        by_rank = self.reduce_sum(x, x.ndim - 1)
        flipped = ops.transpose(x, (1, 0)) + self.transpose(x, (1, 0)) + x.permute(1, 0)
        reversed_axes = ops.transpose(x, tuple(range(x.ndim))[::-1])
        return last, by_attribute, by_rank, flipped, reversed_axes


class ShapeDerivedSizes(nn.Cell):  # mslint: inputs=float32[4,6]
    def __init__(self):
        super().__init__()
        self.indices = Tensor(np.array([0, 2]), ms.int32)

    def construct(self, x):
        largest = ops.topk(x[0], k=x.shape[1] // 2)[0]
        picked = ops.gather(x, self.indices, 0)
        steps = ops.linspace(0.0, 1.0, x.shape[1]) + ops.arange(x.shape[1])
        return largest, picked, steps


class ElementwiseNotShape(nn.Cell):  # mslint: inputs=float32[2,4], float32[2,4]
    def construct(self, x, y):
        filled = ops.masked_fill(x, x > 0, 0.0)
        chosen = ops.where(x > y, x, y)
        larger = mint.max(x, y)  # a tensor, not an axis: the elementwise maximum
        return filled, chosen, larger


class Pool(nn.Cell):
    def construct(self, x, axis):
        return x.mean(axis)  # axis is 1 at the only call: a constant


class PoolAlongConstantAxis(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.pool = Pool()

    def construct(self, x):
        return self.pool(x, 1)


class AxesFromAHelper(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.reduce_mean = ops.ReduceMean()

    def get_axis(self, x):
        return tuple(range(len(x.shape)))  # from the shape: a constant, as in `nn.LossBase`

    def construct(self, x):
        return self.reduce_mean(x, self.get_axis(x))
