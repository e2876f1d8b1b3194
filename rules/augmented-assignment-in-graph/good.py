"""Augmented assignments graph mode and PyNative agree on over two calls with the same inputs, and
the rebinding that replaces the ones they do not."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class RebindsItsInput(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        x = x + 1
        return x


class UpdatesAnIntermediate(nn.Cell):  # mslint: inputs=float32[2,2]
    """The residual of ported blocks: `out` is an operator's result, a new tensor at every call."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        out = self.dense(x)
        out += x
        return out


class UpdatesARebuiltInput(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        x = x * 2
        x += 1
        return x


class CountsWithARebinding(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        i = Tensor(1, ms.int32)
        while i < 3:
            x = x * 2
            i = i + 1
        return x


class CountsInAParameter(nn.Cell):  # mslint: inputs=float32[2,2]
    def __init__(self):
        super().__init__()
        self.steps = Parameter(Tensor(0, ms.float32), name="steps", requires_grad=False)

    def construct(self, x):
        ops.assign_add(self.steps, Tensor(1, ms.float32))
        return x * self.steps


class AccumulatesIntoZerosLike(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        total = ops.zeros_like(x)
        total += 2
        return x + total


class MasksItsIntegerInput(nn.Cell):  # mslint: inputs=int32[2,2]
    def construct(self, x):
        x &= 1
        return x
