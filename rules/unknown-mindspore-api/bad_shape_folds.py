"""Tests on the numbers an input's static shape gives (`b, n, d = x.shape` after a LayerNorm,
`x.shape[1] // 2`, `x.ndim`, `len(x.shape)`) are folded while compiling: the branch the instance's
input takes is compiled, and a keyword the release lacks there fails (n = 1023 is no multiple of 256)."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class PadToLandmarks(nn.Cell):
    def __init__(self, dim, landmarks=256):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))
        self.landmarks = landmarks

    def construct(self, x):
        x = self.norm(x)
        b, n, d = x.shape
        remainder = n % self.landmarks
        if remainder > 0:
            x = ops.pad(x, (0, 0, 0, self.landmarks - remainder), constant_values=0.0)  # expect: unknown-mindspore-api
        return x


class PadLongInputs(nn.Cell):
    def construct(self, x):
        if x.shape[1] // 2 > 256:
            x = ops.pad(x, (0, 1), constant_values=0.0)  # expect: unknown-mindspore-api
        return x


class PadRank3(nn.Cell):
    def construct(self, x):
        if x.ndim == 3:
            x = ops.pad(x, (0, 1), constant_values=0.0)  # expect: unknown-mindspore-api
        return x


class PadBeyondMatrices(nn.Cell):
    def construct(self, x):
        if len(x.shape) != 2:
            x = ops.pad(x, (0, 1), constant_values=0.0)  # expect: unknown-mindspore-api
        return x


if __name__ == "__main__":
    PadToLandmarks(8, landmarks=256)(Tensor(np.ones((1, 1023, 8), np.float32)))
    PadLongInputs()(ops.ones((2, 514), ms.float32))
    PadRank3()(Tensor(np.ones((2, 4, 1), np.float32)))
    PadBeyondMatrices()(ops.ones((2, 4, 1), ms.float32))
