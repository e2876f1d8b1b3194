"""Reads in a branch the compiler never reads, for every instance the program builds: `Block`
keeps its constructor's `attention`, and its one instance is given `Net`'s own `attention`, which
the only `Net` the program builds is given as `False`. MindSpore compiles that instance, so the
test is a constant it folds while parsing (2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


class Net(nn.Cell):
    def __init__(self, attention=True):
        super().__init__()
        self.block = Block(4, attention=attention)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net(attention=False)
    net(Tensor(np.ones((2, 4), np.float32)))
