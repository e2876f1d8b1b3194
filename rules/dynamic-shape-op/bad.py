"""Operators whose output shape depends on the data, in every form."""

import mindspore as ms
from mindspore import mint, nn, ops


class FunctionalUnique(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        values, _ = ops.unique(x)  # expect: dynamic-shape-op
        return values


class PrimitiveFromInit(nn.Cell):  # mslint: inputs=float32[8]
    def __init__(self):
        super().__init__()
        self.unique = ops.Unique()

    def construct(self, x):
        values, _ = self.unique(x)  # expect: dynamic-shape-op
        return values


class InlinePrimitive(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        return ops.MaskedSelect()(x, x > 2)  # expect: dynamic-shape-op


class TensorMethod(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.nonzero()  # expect: dynamic-shape-op


class MintNonzero(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return mint.nonzero(x)  # expect: dynamic-shape-op


class BooleanMask(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        return x[x > 2]  # expect: dynamic-shape-op


class MoreForms(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        picked = mint.masked_select(x, x > 2)  # expect: dynamic-shape-op
        kept = x.masked_select(x < 0)  # expect: dynamic-shape-op
        return picked, kept, ops.argwhere(x)  # expect: dynamic-shape-op


class IndicesAsTuple(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        rows, cols = (x > 0).nonzero(as_tuple=True)  # expect: dynamic-shape-op
        return rows, cols


class ConsecutiveRuns(nn.Cell):  # mslint: inputs=int32[8], int32[8]
    def __init__(self):
        super().__init__()
        self.runs = ops.UniqueConsecutive()

    def construct(self, ids, labels):
        runs = self.runs(ids)[0]  # expect: dynamic-shape-op
        return runs, labels.unique_consecutive()  # expect: dynamic-shape-op


@ms.jit  # mslint: inputs=float32[8]
def masked(x):
    return ops.masked_select(x, x > 2)  # expect: dynamic-shape-op
