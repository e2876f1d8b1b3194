"""A name that a tensor `if` sets in one branch and leaves None in the other: STRICT rejects the
join, LAX falls back to the interpreter (and fails under a gradient)."""

from mindspore import nn


class MaskOnlySometimes(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        mask = None  # expect: branch-shape-mismatch
        if x.sum() > 0:
            mask = x * 2
        return x if mask is None else mask


class NoneInTheElseBranch(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.mean() > 1:  # expect: branch-shape-mismatch
            extra = x + 1
        else:
            extra = None
        return x if extra is None else x * extra
