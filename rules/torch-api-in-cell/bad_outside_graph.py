"""PyTorch habits on tensors outside graph code: they fail in every mode, when the line runs."""

import mindspore as ms
from mindspore import nn, ops


class DetachedInInit(nn.Cell):  # mslint: inputs=float32[2,2]
    def __init__(self):
        super().__init__()
        mask = ops.ones((2, 2), ms.float32)
        self.mask = mask.detach()  # expect: torch-api-in-cell

    def construct(self, x):
        return x * self.mask


class SizedInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.width = ops.ones((2, 4), ms.float32).size(1)  # expect: torch-api-in-cell

    def construct(self, x):
        return x * self.width
