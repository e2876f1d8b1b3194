"""The names and keywords MindSpore 2.10 has, outside graph code."""

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn, ops


class ClippedInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        table = ops.ones((2, 4), ms.float32)
        self.table = table.clip(min=0)

    def construct(self, x):
        return x * self.table


class ReducedInInit(nn.Cell):  # mslint: inputs=float32[1,4]
    def __init__(self):
        super().__init__()
        table = ops.ones((2, 4), ms.float32)
        self.table = table.prod(dim=0, keepdim=True) + table.mean(axis=0, keep_dims=True)

    def construct(self, x):
        return x * self.table


class SplitInInit(nn.Cell):  # mslint: inputs=float32[2,2]
    def __init__(self):
        super().__init__()
        self.halves = mnp.split(mnp.ones((2, 4)), 2, axis=1)

    def construct(self, x):
        return x * mnp.clip(self.halves[0], 0, 1)


class TransformsOfEitherRelease(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        try:
            from mindspore.dataset.vision import Resize
        except ImportError:  # the fallback for MindSpore 1.x, never run on 2.x
            from mindspore.dataset.vision.c_transforms import Resize
        self.resize = Resize((2, 2))

    def construct(self, x):
        return x * 2
