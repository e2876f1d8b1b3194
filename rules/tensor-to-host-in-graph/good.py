"""Host copies that are fine: outside graph code, on constants, and scalar reads that compile."""

import numpy as np

import mindspore as ms
from mindspore import nn, ops


class TableFromInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.table = ms.Tensor(np.arange(4), ms.float32).asnumpy()  # not graph code

    def construct(self, x):
        return x * len(self.table.tolist())  # a constant: folded at compile time


class ItemCompiles(nn.Cell):  # mslint: inputs=float32[]
    def construct(self, x):
        return x * x.item()


class SortInGraph(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.sort(x)[0]


def evaluate(net, x):
    """Host code around the Cell: copying results to numpy here is the right place."""
    return net(x).asnumpy()


class TensorOfConstants(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.offset = ms.Tensor(np.ones((2, 4), np.float32))

    def construct(self, x):
        return x.astype(ms.float16) + ms.Tensor(np.zeros((2, 4)), ms.float16) + self.offset.astype(ms.float16)


class TensorOfPythonNumbers(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        count = x.shape[0] * 2
        count = ms.Tensor([count], ms.float32)
        return x * count


class TensorFunctionOfConstants(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        scale = ms.tensor([2.0], ms.float32)
        return x * scale + ms.tensor(x.shape[0], ms.float32)
