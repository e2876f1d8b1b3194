"""Tensor ifs whose branches give a value two shapes (dynamic rank) or two dtypes (rejected)."""

import mindspore as ms
from mindspore import nn, ops


class IndexOnOneSide(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            y = x
        else:
            y = x[0]
        return y


class LiteralShapes(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            y = ops.zeros((2, 3))
        else:
            y = ops.zeros((3,))
        return y


class ReducesOnOneSide(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.max() > 1:  # expect: branch-shape-mismatch
            y = x.mean(axis=0)
        else:
            y = x * 2
        return y + 1


class ReturnsTwoRanks(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            return x
        return x[0]


class CastsOnOneSide(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            y = x.astype(ms.int32)
        else:
            y = x
        return y


class NumberOrTensor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            loss = x.sum()
        else:
            loss = 0.0
        return loss
