"""The normalized shape as a one-element tuple, from a constructor's argument."""

from mindspore import nn


class Block(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, dim=8, shape=(8,)):
        super().__init__()
        self.norm = nn.LayerNorm((dim,))
        self.again = nn.LayerNorm(shape)

    def construct(self, x):
        return self.again(self.norm(x))


class WideBlock(nn.Cell):  # mslint: inputs=float32[2,16]
    def __init__(self, dim=8):
        super().__init__()
        self.norm = nn.LayerNorm([dim * 2])

    def construct(self, x):
        return self.norm(x)
