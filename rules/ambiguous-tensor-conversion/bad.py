"""Tensors of more than one element, whose shape the inputs or a creation show, converted to one
Python value."""

import mindspore as ms
from mindspore import nn, ops


class ConditionOnAMask(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
            return x
        return -x


class NotOfATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        empty = not x  # expect: ambiguous-tensor-conversion
        return x, empty


class AndOfTensors(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x and x  # expect: ambiguous-tensor-conversion


class BoolOfATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return bool(x)  # expect: ambiguous-tensor-conversion


class IntOfATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return int(x * 2)  # expect: ambiguous-tensor-conversion


class FloatOfACast(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return float(x.astype(ms.float16))  # expect: ambiguous-tensor-conversion


class WhileOnACreatedTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        flags = ops.ones((2, 2), ms.float32)
        while flags:  # expect: ambiguous-tensor-conversion
            flags = flags - 1
        return x


class ConditionOnOneByOne(nn.Cell):  # mslint: inputs=float32[1,1]
    def construct(self, x):
        if x > 0:  # expect: ambiguous-tensor-conversion
            return x
        return -x


class IntOfOneByOne(nn.Cell):  # mslint: inputs=float32[1,1]
    def construct(self, x):
        return x * int(x)  # expect: ambiguous-tensor-conversion
