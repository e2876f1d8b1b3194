"""Dynamic shapes MindSpore builds without a source line: the verifier finds them where their
value is used, and ties them back to the line that bound it."""

from mindspore import mint, nn, ops


class MaxOverInputAxis(nn.Cell):  # mslint: inputs=float32[2,4,3], int32[]
    def construct(self, x, a):
        values, _ = ops.max(x, int(a))  # expect: dynamic-shape-op
        return values * 2


class MintMaxOverInputDim(nn.Cell):  # mslint: inputs=float32[2,4,3], int32[]
    def construct(self, x, a):
        values = mint.max(x, int(a))  # expect: dynamic-shape-op
        return values


class MintWhereOfACondition(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        rows = mint.where(x > 1)  # expect: dynamic-shape-op
        return rows


class KeywordAxisOfAMethod(nn.Cell):  # mslint: inputs=float32[2,4,3], int32[]
    def construct(self, x, a):
        total = x.sum(axis=int(a))  # expect: dynamic-shape-op
        return total + 1


class StarredPermutation(nn.Cell):  # mslint: inputs=float32[2,4], int32[]
    def construct(self, x, first):
        perm = (int(first), 1 - int(first))
        return x.permute(*perm)  # expect: dynamic-shape-op
