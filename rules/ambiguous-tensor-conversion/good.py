"""Conversions of tensors of one element, and of tensors whose size mslint does not know."""

import mindspore as ms
from mindspore import nn, ops


class ConditionOnAReduction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if (x > 0).all():
            return x
        return -x


class ConditionOnOneElement(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        first = x[0:1, 0]
        if first > 0:
            return x
        return x * 2


class IntOfASum(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * int(x.sum())


class ConditionOnAOneElementInput(nn.Cell):  # mslint: inputs=float32[1], float32[2,3]
    def construct(self, flag, x):
        if flag:
            return x
        return x * 2


class NotOfAShape(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        empty = not x.shape
        return ops.ones((2, 3), ms.float32) if empty else x


class WhileOnOneByOne(nn.Cell):  # mslint: inputs=float32[1,1]
    def construct(self, x):
        y = x
        while y > 5:
            y = y - 1
        return y
