"""The same results from operators the CPU backend has: they compile and run on CPU."""

from mindspore import nn, ops


class IndexOfSmallest(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.argmin(x)


class IndexOfSmallestPerRow(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.argmin(x, 1)


class RepeatedTile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.tile(x, (3, 2))
