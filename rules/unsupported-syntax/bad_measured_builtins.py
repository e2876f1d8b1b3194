"""Builtins the measured graph-syntax table of the release finds rejected, interpreted or divergent."""

import os

import mindspore as ms
from mindspore import nn, ops


class StrOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        message = "value " + str(x)  # expect: unsupported-syntax
        print(message)
        return x * 2


class FrozensetOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * len(frozenset(x))  # expect: unsupported-syntax


class HexOfTensorItem(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        print(hex(x[0, 1]))  # expect: unsupported-syntax
        return x


class FirstRowThroughIter(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return next(iter(x))  # expect: unsupported-syntax


class LengthOfString(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * len("abc")  # expect: unsupported-syntax


@ms.jit
def sorted_in_jit(x):  # mslint: inputs=float32[2,3]
    return sorted([x.sum(), x.mean()])[0]  # expect: unsupported-syntax


class LengthOfAnEnvironmentVariable(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * len(os.getenv("HOME", ""))  # expect: unsupported-syntax


class ShiftsATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * (ops.cast(x, ms.int32) << 1)  # expect: unsupported-syntax


class SetsAnAttributeBySetattr(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scale = 2

    def construct(self, x):
        setattr(self, "scale", 3)  # expect: unsupported-syntax
        return x * self.scale


class EvaluatesCode(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return eval("x * 2")  # expect: unsupported-syntax


class NestedComprehension(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        parts = [x * i * j for i in range(2) for j in range(2)]  # expect: unsupported-syntax
        return parts[3]


class NestedDictComprehension(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        grid = {(i, j): x * i * j for i in range(2) for j in range(2)}  # expect: unsupported-syntax
        return grid[(1, 1)]


class ExecutesCode(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        exec("z = 1")  # expect: unsupported-syntax
        return x


class ComprehensionFilteredOnANumber(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        parts = [x * i for i in range(4) if i % 2]  # expect: unsupported-syntax
        return parts[1]


class DeletesAnAttribute(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.extra = 1

    def construct(self, x):
        delattr(self, "extra")  # expect: unsupported-syntax
        return x


@ms.jit
def calls_super_outside_a_class(x):  # mslint: inputs=float32[2,3]
    return x * (super() is not None)  # expect: unsupported-syntax
