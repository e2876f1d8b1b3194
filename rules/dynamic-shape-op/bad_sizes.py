"""Operators whose output size is an argument, given a graph value: the IR shape becomes -1."""

from mindspore import nn, ops


class TopKWithTensorK(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, k):
        return ops.topk(x, int(k))[0]  # expect: dynamic-shape-op


class TopKPrimitive(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, k):
        values, _ = ops.TopK()(x, int(k))  # expect: dynamic-shape-op
        return values


class GatherTensorCount(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, n):
        indices = ops.arange(0, n)  # expect: dynamic-shape-op
        return ops.gather(x, indices, 0)


class SegmentsFromInput(nn.Cell):  # mslint: inputs=float32[8], int32[8], int32[]
    def construct(self, x, ids, n):
        return ops.unsorted_segment_sum(x, ids, int(n))  # expect: dynamic-shape-op
