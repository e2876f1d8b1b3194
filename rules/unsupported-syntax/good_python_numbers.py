"""Python numbers and tuples passed to a Cell are graph constants: `range` of one compiles.

The inputs comments pass them as the call `net(x, 3)` does (see RangeOfTensor in bad.py for
the same code given a tensor)."""

from mindspore import nn


class StepsFromANumber(nn.Cell):  # mslint: inputs=float32[2,4], 3
    def construct(self, x, n):
        for _ in range(n):
            x = x * 2
        return x


class LoopOverAShapeTuple(nn.Cell):  # mslint: inputs=float32[2,4], (2, 4)
    def construct(self, x, shape):
        for _ in range(shape[0]):
            x = x + 1
        return x.reshape(shape)
