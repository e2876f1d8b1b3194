"""Operators whose output size is an argument, given a graph value: the IR shape becomes -1."""

import mindspore as ms
from mindspore import nn, ops


class TopKWithTensorK(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, k):
        return ops.topk(x, int(k))[0]  # expect: dynamic-shape-op


class TopKPrimitive(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, k):
        values, _ = ops.TopK()(x, int(k))  # expect: dynamic-shape-op
        return values


class TopKFromInitAndMethod(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def __init__(self):
        super().__init__()
        self.topk = ops.TopK(sorted=True)

    def construct(self, x, k):
        largest = self.topk(x, int(k))[0]  # expect: dynamic-shape-op
        return largest, (x * 2).topk(int(k))[0]  # expect: dynamic-shape-op


class GatherTensorCount(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, n):
        indices = ops.arange(0, n)  # expect: dynamic-shape-op
        return ops.gather(x, indices, 0)


class RangesWithTensorBounds(nn.Cell):  # mslint: inputs=int32[]
    def __init__(self):
        super().__init__()
        self.range = ops.Range()

    def construct(self, n):
        start, step = ms.Tensor(0, ms.int32), ms.Tensor(1, ms.int32)
        counted = self.range(n - n, n, step)  # expect: dynamic-shape-op
        limited = ops.range(start, n, step)  # expect: dynamic-shape-op
        return counted, limited, ops.linspace(0.0, 1.0, steps=int(n))  # expect: dynamic-shape-op


class SegmentsFromInput(nn.Cell):  # mslint: inputs=float32[8], int32[8], int32[]
    def construct(self, x, ids, n):
        return ops.unsorted_segment_sum(x, ids, int(n))  # expect: dynamic-shape-op


class SegmentsPrimitive(nn.Cell):  # mslint: inputs=float32[8], int32[8], int32[]
    def construct(self, x, ids, n):
        return ops.UnsortedSegmentSum()(x, ids, n)  # expect: dynamic-shape-op


class SampleCountFromInput(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def __init__(self):
        super().__init__()
        self.sample = ops.Multinomial(seed=1)

    def construct(self, probs, n):
        drawn = ops.multinomial(probs, int(n))  # expect: dynamic-shape-op
        again = self.sample(probs * 2, int(n))  # expect: dynamic-shape-op
        order = ops.randperm(int(n))  # expect: dynamic-shape-op
        return drawn, again, order, (probs + 1).multinomial(int(n))  # expect: dynamic-shape-op


class ZerosSizedByInput(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, n):
        count = int(n)
        return ops.zeros((count, 2), ms.float32)  # expect: dynamic-shape-op


class ReshapedByInput(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def construct(self, x, n):
        return x.reshape(int(n), -1)  # expect: dynamic-shape-op
