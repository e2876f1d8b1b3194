"""Names bound on one path of a tensor condition: MindSpore rejects the later use at every level."""

from mindspore import nn


class OnlyInTrueBranch(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
        return y  # expect: branch-local-variable


class OnlyInFalseBranch(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        if x.sum() > 0:
            z = x
        else:
            y = x * 3
            z = y
        return z + y  # expect: branch-local-variable


class OnlyInWhileBody(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        while x.sum() < 10:
            x = x + 1
            last = x
        return last  # expect: branch-local-variable


class OnlyInOneBranchInALoop(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        for s in (x, x * 2):
            if s.sum() > 0:
                t = s + 1
            x = x + t  # expect: branch-local-variable
        return x
