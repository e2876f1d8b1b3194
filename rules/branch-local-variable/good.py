"""Branches that keep every name bound, and conditions the compiler resolves."""

from mindspore import nn


class BoundBefore(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        y = x
        if x.sum() > 0:
            y = x * 2
        return y


class BoundInBothBranches(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            y = x
        return y


class OtherBranchReturns(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        else:
            return x
        return y


class ConstantCondition(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.double = True

    def construct(self, x):
        if self.double:
            y = x * 2
        return y


class UsedInsideTheBranch(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        out = x
        if x.sum() > 0:
            y = x * 2
            out = y + 1
        return out
