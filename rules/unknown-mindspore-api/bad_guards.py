"""Absent names under code that does not test for them: an `if` on a model's own version or a
mode flag, and a `try` whose handler cannot catch the AttributeError. The line runs on 2.10."""

from mindspore import nn, ops
from mindspore.ops import operations as P


class ResizeForModelVersion2(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def __init__(self, version=2):
        super().__init__()
        self.version = version

    def construct(self, x):
        if self.version == 2:
            return ops.ResizeBilinear((8, 8))(x)  # expect: unknown-mindspore-api
        return x


class ResizeWhenAsked(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def __init__(self, resize=True):
        super().__init__()
        self.resize = resize

    def construct(self, x):
        if self.resize:
            return P.ResizeBilinear((8, 8))(x)  # expect: unknown-mindspore-api
        return x


class SumTriedForTypeErrors(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        try:
            self.sum = P.Sum()  # expect: unknown-mindspore-api
        except TypeError:
            self.sum = P.ReduceSum()

    def construct(self, x):
        return self.sum(x)
