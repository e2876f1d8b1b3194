"""Indexing in a tensor `if` that keeps the shape of what the name had, or that mslint cannot compare."""

from mindspore import nn


class WholeSlices(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        if x.sum() > 0:
            y = x[:]
        z = x
        if x.sum() > 1:
            z = x[...] * 2
        w = x
        if x.sum() > 2:
            w = x[0:, ::1]
        return y + z + w


class RowsOnBothSides(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        rows = list(x)
        y = rows[1]
        if x.sum() > 0:
            y = rows[0] * 2
        return y


class IndexOfAShape(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        size = x.shape
        n = 3
        if x.sum() > 0:
            n = size[0]
        return x * n


class SameSliceOnBothSides(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x[0:1] * 2
        if x.sum() > 0:
            y = x[0:1]
        return y
