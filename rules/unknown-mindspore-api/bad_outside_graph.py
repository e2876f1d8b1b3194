"""Names and keywords MindSpore lacks, outside graph code: they fail in every mode when the line
runs (here while the Cell is built)."""

import numpy as np

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import nn, ops


class ClippedInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        table = ops.ones((2, 4), ms.float32)
        self.table = table.clip(xmin=0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * self.table


class RepeatedInInit(nn.Cell):  # mslint: inputs=float32[4,4]
    def __init__(self):
        super().__init__()
        self.table = ops.ones((2, 4), ms.float32).repeat(2, axis=0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * 2


class ProductInInit(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        table = ops.ones((2, 4), ms.float32)
        self.table = table.prod(axis=0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * self.table


class ChunkedInInit(nn.Cell):  # mslint: inputs=float32[1,4]
    def __init__(self):
        super().__init__()
        self.halves = mnp.chunk(mnp.ones((2, 4)), 2)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * self.halves[0]


class TransformsOfMindSpore1(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        import mindspore.dataset.vision.c_transforms as vision  # expect: unknown-mindspore-api

        self.resize = vision.Resize((2, 2))

    def construct(self, x):
        return x * 2


class TypeCastOfMindSpore1(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        from mindspore.dataset.transforms.py_transforms import Compose  # expect: unknown-mindspore-api

        self.compose = Compose

    def construct(self, x):
        return x * 2


class BoxesClippedInInit(nn.Cell):  # mslint: inputs=float32[2,2]
    """As an evaluation script clips boxes: a tensor rebound to an item of itself is a tensor."""

    def __init__(self):
        super().__init__()
        boxes = ms.Tensor([[0.5, 2.0, -1.0, 3.0], [1.5, 0.2, 0.3, 0.1]], ms.float32)
        boxes = boxes[:, :2]
        self.boxes = boxes.clip(xmin=0.0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * self.boxes


class FromNumpyInInit(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        self.table = ms.Tensor.from_numpy(np.ones(2, np.float32)).clip(xmin=0.0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return x * self.table
