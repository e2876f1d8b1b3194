"""`nn.LayerNorm(dim)` with `dim` a constructor's argument that every instance the program builds
gives an int (a ViT ported from PyTorch builds `Block(192)`): MindSpore 2.10 takes the normalized
shape as a tuple or a list, and building the layer raises TypeError."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.norm(x)


class ViT(nn.Cell):  # mslint: inputs=float32[2,192]
    def __init__(self, width=192):
        super().__init__()
        self.block = Block(width)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    ViT()(Tensor(np.ones((2, 192), np.float32)))
