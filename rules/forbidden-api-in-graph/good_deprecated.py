"""The replacements the deprecation warnings name, and a deprecated API decorated with
`@deprecated` (MindSpore compiles the function it wraps)."""

import mindspore as ms
from mindspore import nn, ops


class ShrinksAndTakesTheDeterminant(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return ops.softshrink(x).sum() + ops.det(x) + ops.eps(x).sum()


class ConvertsInInit(nn.Cell):  # mslint: inputs=float32[4,4]
    def __init__(self):
        super().__init__()
        self.dtype = ms.pytype_to_dtype(float)

    def construct(self, x):
        return x.astype(self.dtype)
