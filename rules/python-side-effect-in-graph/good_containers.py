"""Containers that graph code reads, or builds and consumes locally: all compile in STRICT."""

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class ReadsAttributeContainers(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scales = {"low": 0.5, "high": 2.0}
        self.offsets = [1.0, 2.0]

    def construct(self, x):
        return x * self.scales["high"] + self.offsets[1]


class LocalListAndDict(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        outs = []
        named = {}
        for i in range(2):
            outs.append(x * i)
            named[i] = x + i
        return ops.concat(outs) + ops.concat((named[0], named[1]))


class ParameterAssigned(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.state = Parameter(Tensor(np.zeros((2, 3), np.float32)), requires_grad=False)

    def construct(self, x):
        self.state = x * 2
        return x + ops.cast(self.state, ms.float32)
