"""Look-alikes of forms whose verdict depends on where they stand, which MindSpore 2.10 compiles."""

import functools

from mindspore import nn, ops


def scale(v):
    return v * 2


class LambdaBeforeTheLoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        double = lambda v: v * 2
        y = x
        for _ in range(2):
            y = double(y)
        return y


class FunctionsInALoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for i in range(2):
            y = scale(y) * functools.reduce(ops.mul, (1, 2, i + 1))
        return y


class LambdaUnderAnIfOnATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        if x.sum() > 0:
            double = lambda v: v * 2
            y = double(x)
        return y
