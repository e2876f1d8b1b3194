"""Statements MindSpore 2.10 rejects at every syntax level, LAX included."""

from mindspore import nn, ops


class ImportInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        import math  # expect: unsupported-syntax

        return x * math.pi


class FromImportInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        from math import pi  # expect: unsupported-syntax

        return x * pi


class TryInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        try:  # expect: unsupported-syntax
            y = x * 2
        except ValueError:
            y = x
        return y


class DelInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x * 2
        del y  # expect: unsupported-syntax
        return x


def halves(x):
    yield x / 2


class GeneratorInGraph(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        for half in halves(x):  # expect: unsupported-syntax
            x = half
        return x


class RangeOfTensor(nn.Cell):  # mslint: inputs=int32[]
    def construct(self, n):
        total = 0
        for i in range(n):  # expect: unsupported-syntax
            total = total + i
        return total


class BuiltinMaxOfTensor(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return max(x, 1)  # expect: unsupported-syntax


class MapWithClosure(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.branches = nn.CellList([nn.ReLU(), nn.Tanh()])

    def construct(self, x):
        outs = map(lambda branch: branch(x), self.branches)  # expect: unsupported-syntax
        return outs


class WalrusInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return (y := x * 2) + y  # expect: unsupported-syntax


class BuiltinMaxOfAReshapedTensor(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.reshape = ops.Reshape()

    def construct(self, x):
        y = self.reshape(x, (1, x.shape[0], -1))
        return max(y, 1)  # expect: unsupported-syntax
