"""Entries built from [tool.mslint.verify], from `# mslint: inputs=` comments, and ones that cannot be built."""

import numpy as np

from mindspore import nn, ops

from .layers import squash


class Classifier(nn.Cell):
    def __init__(self, num_classes):
        super().__init__()
        self.head = nn.Dense(8, num_classes)

    def construct(self, x):
        return np.argmax(self.head(x))


class Deduplicate(nn.Cell):  # mslint: inputs=int32[6]
    def construct(self, x):
        return ops.unique(x)[0]


class SquashThroughHelper(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return squash(x)


class NeedsWidth(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self, width):
        super().__init__()
        self.width = width

    def construct(self, x):
        return np.exp(x)


class NoSpecs(nn.Cell):
    def construct(self, x, scale):
        return np.log(x)


class FoldedConstant(nn.Cell):  # mslint: inputs=float32[2]
    def construct(self, x):
        return x * np.float32(2.0)


class OpensAFile(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with open("weights.txt") as handle:
            handle.read()
        return x
