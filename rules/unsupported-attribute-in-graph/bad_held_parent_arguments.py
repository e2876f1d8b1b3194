"""A read in a branch on an attribute of a sub-Cell (`self.block.attention`) that the parent builds
from its own constructor's argument (`Block(attention=attention)`): the instance of `Net` the
program builds keeps the default `attention=True`, so the branch is compiled and the read of
`attn`, which `Net` never sets, fails."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
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
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.block(x)


if __name__ == "__main__":
    net = Net(4)
    net(Tensor(np.ones((2, 4), np.float32)))
