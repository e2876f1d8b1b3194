"""Joins the compiler accepts: values of one type on both sides, and
conditional expressions decided while compiling."""

import mindspore as ms
from mindspore import nn, ops


class TwoInts(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:
            return x * 2, 1
        return x, 0


class TwoTensorsInAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * 2 if x.sum() > 0 else x - 1


class NumberWhileNotTraining(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        scale = 0.5 if self.training else 1
        return x * scale


class TuplesOfOneShapeInAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        pair = (x, x * 2) if x.sum() > 0 else (x * 3, x)
        return pair[0] + pair[1]


class CastOnBothSidesInAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.cast(x, ms.float16) if x.sum() > 0 else ops.cast(x * 2, ms.float16)


class TwoConditionsOnTensors(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0 and x.mean() < 5:
            return x
        return x * 2


class FloatOrIntBoundInBranches(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:
            scale = 1.0
        else:
            scale = 0
        return x * scale


class ATupleOrTensorNothingReads(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        unused = (x, x) if x.sum() > 0 else x
        return x * 2
