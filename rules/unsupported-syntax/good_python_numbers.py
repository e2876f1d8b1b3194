"""Python numbers and tuples passed to a Cell are graph constants: `range` of one compiles.

The inputs comments pass them as the call `net(x, 3)` does (see RangeOfTensor in bad.py for
the same code given a tensor)."""

from mindspore import nn


class StepsFromANumber(nn.Cell):  # mslint: inputs=float32[2,4], 3
    def construct(self, x, n):
        for _ in range(n):
            x = x * 2
        return x


class LoopOverAShapeTuple(nn.Cell):  # mslint: inputs=float32[2,4], (2, 4)
    def construct(self, x, shape):
        for _ in range(shape[0]):
            x = x + 1
        return x.reshape(shape)


class EnumerateCountsWithPythonInts(nn.Cell):  # mslint: inputs=float32[2,4], float32[2,4]
    """`enumerate` over tensors counts with Python ints: formatting the count is constant."""

    def construct(self, a, b):
        total = a * 0
        for index, feature in enumerate((a, b)):
            name = "head_%d" % index
            total = total + feature * index * (name != "")
        return total
