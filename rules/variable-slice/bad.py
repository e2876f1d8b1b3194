"""Slices whose bounds are only known at run time: the result shape is dynamic."""

from mindspore import nn


class SliceByInput(nn.Cell):  # mslint: inputs=float32[8,4], int32[]
    def construct(self, x, n):
        return x[:n]  # expect: variable-slice


class SliceByComputedCount(nn.Cell):  # mslint: inputs=float32[8,4]
    def construct(self, x):
        count = (x[:, 0] > 3).sum()
        return x[:count]  # expect: variable-slice


class SliceWithTensorStart(nn.Cell):  # mslint: inputs=float32[8,4], int32[]
    def construct(self, x, start):
        return x[:, start:]  # expect: variable-slice


class NestedFunctionGivenACount(nn.Cell):  # mslint: inputs=float32[8,4]
    def construct(self, x):
        def head(t, n):
            return t[:n]  # expect: variable-slice

        return head(x, (x[:, 0] > 3).sum())


class _Head(nn.Cell):
    def construct(self, x, n):
        return x[:n]  # expect: variable-slice


class BlocksGivenACount(nn.Cell):  # mslint: inputs=float32[8,4]
    def __init__(self):
        super().__init__()
        blocks = []
        for _ in range(2):
            blocks.append(_Head())
        self.blocks = nn.CellList(blocks)

    def construct(self, x):
        for block in self.blocks:
            x = block(x, (x[:, 0] > 3).sum())
        return x


class LoopOverTensorCounts(nn.Cell):  # mslint: inputs=float32[8,4], int32[2]
    """A loop's target is an item of its iterable: here a tensor of counts."""

    def construct(self, x, counts):
        parts = []
        start = 0
        for count in counts:
            parts.append(x[start : start + count])  # expect: variable-slice
            start = start + count
        return parts[0]
