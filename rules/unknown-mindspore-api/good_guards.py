"""Version-portable code: an absent name used only where a test on the release says it exists
(`hasattr`, MindSpore's version) or in a `try` that catches the AttributeError."""

import mindspore as ms
from mindspore import nn
from mindspore.ops import operations as P


def mindspore_is_1x():
    return ms.__version__.startswith("1.")


class ResizeWhereTheReleaseHasIt(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def __init__(self):
        super().__init__()
        if hasattr(P, "ResizeBilinear"):
            self.resize = P.ResizeBilinear((8, 8))
        else:
            self.resize = P.ResizeBilinearV2()

    def construct(self, x):
        return self.resize(x, (8, 8))


class SumTriedForAttributeErrors(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        try:
            self.sum = P.Sum()
        except AttributeError:
            self.sum = P.ReduceSum()

    def construct(self, x):
        return self.sum(x)


class SumOnMindSpore1(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.sum = P.Sum() if mindspore_is_1x() else P.ReduceSum()

    def construct(self, x):
        return self.sum(x)
