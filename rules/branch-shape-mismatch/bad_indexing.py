"""A tensor `if` that gives a name a row or a slice of the tensor the name had before the `if`."""

from mindspore import nn


class SliceOfTheRows(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            y = x[slice(0, 1)]
        return y * 2


class SliceOfTheColumns(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            y = x[:, 1:3:1]
        return y * 2


class FirstRowOfAList(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            rows = list(x)
            y = rows[0]
        return y * 2


class FirstRowOfATuple(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            y = tuple(x)[0]
        return y * 2


class FirstRowOfAComprehension(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            parts = [row * 2 for row in x]
            y = parts[0]
        return y * 2


class FirstRowOfADict(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            rows = {i: row for i, row in enumerate(x)}
            y = rows[0]
        return y * 2
