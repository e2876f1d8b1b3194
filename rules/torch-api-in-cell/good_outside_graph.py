"""The MindSpore ways outside graph code: `ops.stop_gradient`, `shape`, the element count `size`."""

import mindspore as ms
from mindspore import nn, ops


class StoppedInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        weights = ops.ones((2, 4), ms.float32)
        self.mask = ops.stop_gradient(weights)
        self.width = weights.shape[1]
        self.count = weights.size

    def construct(self, x):
        return x * self.mask * self.width / self.count
