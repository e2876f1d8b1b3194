"""Graph code that calls functions, methods and sub-Cells of the checked code with arguments
their signatures cannot take: the compiler refuses each call when it reaches it."""

import mindspore as ms
from mindspore import nn


def scale(x, factor, bias):
    return x * factor + bias


def shift(x, *, offset):
    return x + offset


class Double(nn.Cell):
    def construct(self, x):
        return x * 2


class Pair(nn.Cell):
    def construct(self, x, y):
        return x * y


class TooFewForFunction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return scale(x, 2.0)  # expect: call-argument-mismatch


class TooManyForFunction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return scale(x, 2.0, 1.0, 0.5)  # expect: call-argument-mismatch


class UnknownKeyword(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return scale(x, 2.0, bias=1.0, gain=3.0)  # expect: call-argument-mismatch


class KeywordOnlyLeftOut(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return shift(x)  # expect: call-argument-mismatch


class TooManyForSubCell(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.double = Double()

    def construct(self, x):
        return self.double(x, x)  # expect: call-argument-mismatch


class TooFewForSubCell(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.pair = Pair()

    def construct(self, x):
        return self.pair(x)  # expect: call-argument-mismatch


class TooManyForMethod(nn.Cell):  # mslint: inputs=float32[2,3]
    def halve(self, x):
        return x / 2

    def construct(self, x):
        return self.halve(x, 2)  # expect: call-argument-mismatch


class ClassMethodThroughSelf(nn.Cell):  # mslint: inputs=float32[2,3]
    @classmethod
    def add(cls, x, y):
        return x + y

    def construct(self, x):
        return self.add(x, x)  # expect: call-argument-mismatch


class ClassMethodThroughClass(nn.Cell):  # mslint: inputs=float32[2,3]
    @classmethod
    def add(cls, x, y):
        return x + y

    def construct(self, x):
        return ClassMethodThroughClass.add(x, x)  # expect: call-argument-mismatch


@ms.jit
def train_step(x):  # mslint: inputs=float32[2,3]
    return scale(x, 2.0)  # expect: call-argument-mismatch


class AfterReturnNotTaken(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.fast = False

    def construct(self, x):
        if self.fast:
            return x
        return scale(x, 1.0, 0.0, 3.0)  # expect: call-argument-mismatch
