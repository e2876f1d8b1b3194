"""Loops that grow a tensor where graph mode unrolls them, and tensor loops that keep shapes."""

from mindspore import nn, ops


class GrowsOverAConstantRange(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for _ in range(3):
            y = ops.concat((y, x))
        return y


class GrowsWhileACounterIsSmall(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        i = 0
        while i < 3:
            y = ops.concat((y, x))
            i += 1
        return y


class KeepsItsShapeInATensorWhile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        while y.sum() < 100:
            y = y * 2 + 1
        return y


class GrowsWhenTraining(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        if self.training:
            for _ in range(3):
                y = ops.concat((y, x))
        return y


class GrowsAlikeInBothBranches(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:
            y = x * 2
            for _ in range(3):
                y = ops.concat((y, x))
        else:
            y = x
            for _ in range(3):
                y = ops.concat((y, x))
        return y


class ConcatenatesOnce(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = ops.concat((x, x))
        if x.sum() > 0:
            y = y * 2
        return y


class KeepsAWindowInATensorWhile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        while x.sum() < 100:
            y = ops.concat((y, x))
            y = y[-2:]
            x = x * 2
        return y + x
