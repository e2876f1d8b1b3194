"""Forms whose verdict depends on where they stand: in a `for` loop or under an `if` on a tensor."""

import functools

from mindspore import nn


class LambdaInALoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for _ in range(2):
            scale = lambda v: v * 2  # expect: unsupported-syntax
            y = scale(y)
        return y


class ReduceOverALambdaInALoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for _ in range(2):
            y = y * functools.reduce(lambda a, b: a * b, (1, 2, 3))  # expect: unsupported-syntax
        return y
