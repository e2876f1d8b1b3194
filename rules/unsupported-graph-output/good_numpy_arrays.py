"""Arrays used inside the top graph, and tensors handed back instead of arrays."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class ReturnsATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * 2, ops.zeros(3, ms.float32)


class UsesAnArrayInside(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scale = Tensor(np.full((2, 3), 2.0, np.float32))

    def construct(self, x):
        return x * self.scale
