"""The calls of bad_graph_signatures.py in the forms graph mode compiles, with PyNative's result
(measured on MindSpore 2.10 in mslint/data/tensor-signatures-2.10.0.json)."""

from mindspore import nn


class ExpandBySizes(nn.Cell):  # mslint: inputs=float32[2,1,4]
    def construct(self, x):
        return x.broadcast_to((2, 3, 4))


class ExpandComputedSizes(nn.Cell):  # mslint: inputs=float32[2,1,4]
    def construct(self, x):
        b, _, c = x.shape
        return x.broadcast_to((b, 3, c))


class AmaxKeepdims(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x.amax(1, True)


class EqualOther(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, x, y):
        return x.equal(y)


class MultiplyValue(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def construct(self, x, y):
        return x.multiply(y)


class DiagonalScatterWithOffset(nn.Cell):  # mslint: inputs=float32[3,3], float32[3]
    def construct(self, x, y):
        return x.diagonal_scatter(y, 0)


class TupleNotATensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x.shape.count(2)
