"""Tensor ifs whose branches agree, or differ in ways MindSpore joins (or never sees)."""

import mindspore as ms
from mindspore import nn, ops


class NoOverflowCheck(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        overflow = x.max() > 100
        if not overflow:
            x = x * 2
        return x


class SameShapeBothSides(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:
            y = x[0] * 2
        else:
            y = x[1]
        return y


class KeepsDims(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:
            y = x.sum(axis=1, keepdims=True)
        else:
            y = x[:, :1]
        return y


class CastsBothSides(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:
            y = (x * 2).astype(ms.float16)
        else:
            y = x.astype(ms.float16)
        return y


class ShapeDecidedWhileCompiling(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.shape[0] > 1:
            y = x[0]
        else:
            y = x
        return y


class UnusedAfterTheIf(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = x[0]
        return x * 2


class OptionalMask(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x, mask=None):
        if mask is None:
            mask = ops.ones((2, 4))
        else:
            mask = mask[0]
        return x * mask


class NumbersBothSides(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:
            scale = 2
        else:
            scale = 3
        return x * scale


class CastToItsOwnDtype(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x
        if x.sum() > 0:
            y = ops.cast(x, ms.float32)
        return y * 2
