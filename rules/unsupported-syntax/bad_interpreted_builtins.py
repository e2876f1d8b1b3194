"""Builtins and `%` formatting of tensors: STRICT rejects them, LAX runs them in the interpreter."""

from mindspore import nn


class SortedScalars(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        low = sorted([x.sum(), x.mean()])[0]  # expect: unsupported-syntax
        return x * low


class AnyOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if any(x):  # expect: unsupported-syntax
            return x * 2
        return x


class DivmodOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        quotient, remainder = divmod(x, 2)  # expect: unsupported-syntax
        return quotient + remainder


class PercentFormatOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        message = "value %s" % x  # expect: unsupported-syntax
        print(message)
        return x * 2


class ReversedRows(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for row in reversed(x):  # expect: unsupported-syntax
            y = y + row
        return y


class MembershipInTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if 1 in x:  # expect: unsupported-syntax
            return x * 2
        return x


class DictOfTensorKeywords(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        named = dict(scaled=x * 2)  # expect: unsupported-syntax
        return named["scaled"]


class FormatMethodOfTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        print("sum={}".format(x.sum()))  # expect: unsupported-syntax
        return x * 2


class MaxOfAReboundInput(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        x0 = x
        x = x0
        return max(x)  # expect: unsupported-syntax


class FStringOfATensor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        print(f"x={x}")  # expect: unsupported-syntax
        return x * 2


class FStringWithAFormatSpec(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        print(f"{x.sum():.2f}")  # expect: unsupported-syntax
        return x * 2


class MaxOfOneElementTensorAndNumber(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        total = x.sum()
        return x * max(total, 1)  # expect: unsupported-syntax


class MinOfShapeAndOneElementTensor(nn.Cell):  # mslint: inputs=float32[2,3], float32[1]
    def construct(self, x, scale):
        return x * min(x.shape[0], scale)  # expect: unsupported-syntax
