"""Calls whose arguments bind: defaults left out, keywords, `*args` and `**kwargs`, a static
method, a call on a branch the compiler folds away or after one that always returns, and
`nn.SequentialCell`, which hands each item one value."""

from mindspore import nn


def scale(x, factor=2.0, bias=0.0):
    return x * factor + bias


def total(*values, **weights):
    return values[0] + values[1] * weights["second"]


class Pair(nn.Cell):
    def construct(self, x, y=None):
        return x if y is None else x * y


class Defaults(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.pair = Pair()

    def construct(self, x):
        return scale(x) + scale(x, bias=1.0) + self.pair(x) + self.pair(x, y=x)


class Spread(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return total(x, x, second=2.0)


class StaticMethod(nn.Cell):  # mslint: inputs=float32[2,3]
    @staticmethod
    def add(x, y):
        return x + y

    def construct(self, x):
        return self.add(x, x) + StaticMethod.add(x, x)


class FoldedBranch(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.legacy = False

    def construct(self, x):
        if self.legacy:
            return scale(x, 1.0, 0.0, 3.0)
        return x


class Chain(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell([Pair(), nn.ReLU()])

    def construct(self, x):
        return self.body(x)


class AfterReturn(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.fast = True

    def construct(self, x):
        if self.fast:  # folded: the branch always returns, so what follows is never compiled
            return x
        return scale(x, 1.0, 0.0, 3.0)
