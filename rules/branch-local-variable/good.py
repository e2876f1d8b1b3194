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


class LoopVariableBoundBefore(nn.Cell):  # mslint: inputs=float32[4]
    """The loop binds `s` before each run of its body: the branch only rebinds it."""

    def construct(self, x):
        for s in (x, x * 2):
            if s.sum() > 0:
                s = s + 1
            x = x + s
        return x
