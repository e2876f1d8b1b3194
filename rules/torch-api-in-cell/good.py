"""The MindSpore spellings, and the PyTorch-named methods MindSpore tensors do have."""

import numpy as np

import mindspore as ms
from mindspore import nn, ops


class Flattens(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.view(x.shape[0], -1) * x.size


class StopsGradient(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.stop_gradient(x).permute(1, 0).contiguous()


class CastsWithTo(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.to(ms.float16)


class ChecksShapeWithMessage(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.shape != (2, 4):
            raise ValueError(f"expected (2, 4), got {x.size()}")
        return x * 2


class SizesOfAttributes(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.scale = ms.Tensor(np.ones((2, 4), np.float32))
        self.table = np.ones((2, 4), np.float32)

    def construct(self, x):
        return x.reshape(self.scale.shape[1], -1) * self.scale.size * self.table.size
