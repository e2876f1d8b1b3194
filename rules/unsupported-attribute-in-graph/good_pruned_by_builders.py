"""Reads in a branch the compiler never reads, for every instance the program builds, where a
classmethod builds the class: `Block.from_config(4)` calls `cls(dim, attention=attention)` with
its own default `attention=False`. MindSpore compiles that instance and folds the test while
parsing (2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    @classmethod
    def from_config(cls, dim, attention=False):
        return cls(dim, attention=attention)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block.from_config(4)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
