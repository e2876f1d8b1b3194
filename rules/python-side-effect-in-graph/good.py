"""State kept the graph way, and Python state that is only read."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class ParameterCounter(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(0, ms.int32), name="count", requires_grad=False)
        self.scale = 2.0

    def construct(self, x):
        ops.assign_add(self.count, Tensor(1, ms.int32))
        return x * self.scale


class LocalListConsumed(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        parts = []
        for i in range(2):
            parts.append(x * i)
        return ops.concat(parts)
