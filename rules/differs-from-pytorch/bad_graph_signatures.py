"""Tensor methods called in a form that PyNative runs and graph mode refuses: graph mode resolves
`x.method(...)` through MindSpore's parser tables, whose signature differs from the Tensor method's
(measured on MindSpore 2.10 in mslint/data/tensor-signatures-2.10.0.json, STRICT and LAX). Each
line compiles to the error quoted beside it."""

from mindspore import nn


class ExpandBySizes(nn.Cell):  # mslint: inputs=float32[2,1,4]
    def construct(self, x):
        # TypeError: The parameters number of the function is 2, but the number of provided arguments is 4.
        return x.expand(2, 3, 4)  # expect: differs-from-pytorch


class ExpandByTuple(nn.Cell):  # mslint: inputs=float32[2,1,4]
    def construct(self, x):
        # RuntimeError: The method 'GetShapeVector()' doesn't implement
        return x.expand((2, 3, 4))  # expect: differs-from-pytorch


class ExpandComputedSizes(nn.Cell):  # mslint: inputs=float32[2,1,4]
    def construct(self, x):
        b, _, c = x.shape
        return x.expand(b, 3, c)  # expect: differs-from-pytorch


class AmaxKeepdims(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        # RuntimeError: Got an unexpected keyword argument 'keepdims'
        return x.amax(1, keepdims=True)  # expect: differs-from-pytorch


class EqualOther(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, x, y):
        # RuntimeError: Got an unexpected keyword argument 'other'
        return x.equal(other=y)  # expect: differs-from-pytorch


class MultiplyValue(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, x, y):
        return x.multiply(value=y)  # expect: differs-from-pytorch


class DiagonalScatterWithoutOffset(nn.Cell):  # mslint: inputs=float32[3,3], float32[3]
    def construct(self, x, y):
        # RuntimeError: Miss argument input for parameter:offset
        return x.diagonal_scatter(y)  # expect: differs-from-pytorch
