"""Joins the compiler rejects that only the inferred types show: a Python float and int, a tuple
and a tensor, a reduction and a number, and the two sides of a conditional expression."""

import mindspore as ms
from mindspore import nn, ops


class FloatOrInt(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            return x * 2, 1.0
        return x, 0


class TupleOrTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            return (x, x)
        return x


class ShapeItemOrTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            return x.shape[0]
        return x


class TensorOrNumberInAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x if x.sum() > 0 else 0  # expect: branch-shape-mismatch
        return y


class CastOnOneSideOfAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ops.cast(x, ms.int32) if x.sum() > 0 else x  # expect: branch-shape-mismatch


class ReductionOrNumberInAConditional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        total = x.sum()
        return x * (total if total > 0 else 1)  # expect: branch-shape-mismatch


class TensorAndPythonBool(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        flag = True
        if x.sum() > 0 and flag:  # expect: branch-shape-mismatch
            return x
        return x * 2


class BoolTensorOrFloatTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.sum() > 0 and x:  # expect: branch-shape-mismatch
            return x
        return x * 2


class ATupleOrTensorRead(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        pair = (x, x) if x.sum() > 0 else x  # expect: branch-shape-mismatch
        return pair[0] * 2


@ms.jit
def int_or_string(x):  # mslint: inputs=float32[1]
    if x > 1:  # expect: branch-shape-mismatch
        return 1
    return "one"


@ms.jit
def bool_or_int(x):  # mslint: inputs=float32[1]
    if x > 1:  # expect: branch-shape-mismatch
        return True
    return 1


@ms.jit
def tensor_or_string(x):  # mslint: inputs=float32[1]
    if x > 1:  # expect: branch-shape-mismatch
        return x
    return "one"


@ms.jit
def int_or_string_in_a_conditional(x):  # mslint: inputs=float32[1]
    return 1 if x > 1 else "one"  # expect: branch-shape-mismatch
