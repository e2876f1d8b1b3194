"""`nn.LayerNorm(shape)` with `shape` a constructor's argument that every instance the program
builds gives a tuple: the normalized shape MindSpore 2.10 takes."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, shape):
        super().__init__()
        self.norm = nn.LayerNorm(shape)

    def construct(self, x):
        return self.norm(x)


class ViT(nn.Cell):  # mslint: inputs=float32[2,192]
    def __init__(self, width=192):
        super().__init__()
        self.block = Block((width,))

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    ViT()(Tensor(np.ones((2, 192), np.float32)))
