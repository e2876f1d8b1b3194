"""Reductions, transposes and gathers along an axis that is a graph value: the compiler cannot
know which dimensions the output keeps, so its shape (or rank) is dynamic."""

from mindspore import mint, nn, ops


class SumOverInputAxis(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def construct(self, x, axis):
        return ops.sum(x, int(axis))  # expect: dynamic-shape-op


class ReductionForms(nn.Cell):  # mslint: inputs=float32[2,4,3], int32[]
    def construct(self, x, axis):
        a = int(axis)
        total = mint.sum(x, dim=a)  # expect: dynamic-shape-op
        both = ops.sum(x, (0, a), keepdim=True)  # expect: dynamic-shape-op
        mean = x.mean(a)  # expect: dynamic-shape-op
        peak = ops.amax(x, a)  # expect: dynamic-shape-op
        low = x.amin(a)  # expect: dynamic-shape-op
        prod = mint.prod(x, a)  # expect: dynamic-shape-op
        best = x.max(a)  # expect: dynamic-shape-op
        return total, both, mean, peak, low, prod, best, ops.any(x > 0, a)  # expect: dynamic-shape-op


class ReducePrimitives(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def __init__(self):
        super().__init__()
        self.mean = ops.ReduceMean(keep_dims=True)

    def construct(self, x, axis):
        total = ops.ReduceSum()(x, axis)  # expect: dynamic-shape-op
        peak = ops.ReduceMax()(x, int(axis))  # expect: dynamic-shape-op
        return total, peak, self.mean(x, int(axis))  # expect: dynamic-shape-op


class PermutationFromInput(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def __init__(self):
        super().__init__()
        self.transpose = ops.Transpose()

    def construct(self, x, first):
        perm = (int(first), 1 - int(first))
        moved = ops.transpose(x, perm)  # expect: dynamic-shape-op
        permuted = (x + 1).permute(perm[0], perm[1])  # expect: dynamic-shape-op
        swapped = mint.transpose(x * 2, 0, int(first))  # expect: dynamic-shape-op
        return moved, permuted, swapped, self.transpose(x * 3, perm)  # expect: dynamic-shape-op


class GatherAlongInputAxis(nn.Cell):  # mslint: inputs=float32[2,4], int32[2], int32[]
    def construct(self, x, indices, axis):
        rows = ops.gather(x, indices, axis=int(axis))  # expect: dynamic-shape-op
        return rows, ops.Gather()(x * 2, indices, int(axis))  # expect: dynamic-shape-op


class MintGatherAlongInputDim(nn.Cell):  # mslint: inputs=float32[2,4], int64[2,4], int32[]
    def construct(self, x, index, dim):
        return mint.gather(x, int(dim), index)  # expect: dynamic-shape-op


class AxisFromAHelper(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def pick_axis(self, axis):
        return int(axis)  # from the input's value: a graph value

    def construct(self, x, axis):
        return ops.ReduceMean()(x, self.pick_axis(axis))  # expect: dynamic-shape-op
