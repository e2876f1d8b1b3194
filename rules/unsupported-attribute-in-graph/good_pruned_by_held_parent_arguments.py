"""A read in a branch on an attribute of a sub-Cell (`self.block.attention`) that the parent builds
from its own constructor's argument (`Block(attention=attention)`): every instance of `Net` the
program builds is given `attention=False`, so MindSpore folds the test and never evaluates the read
of `attn`, which `Net` never sets (2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        return self.proj(x)


class Net(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.block = Block(dim, attention=attention)

    def construct(self, x):
        if self.block.attention:
            x = self.attn(x)
        return self.block(x)


if __name__ == "__main__":
    net = Net(4, attention=False)
    net(Tensor(np.ones((2, 4), np.float32)))
