"""The branch an instance takes, where a configuration class decides it: `Net` reads the fields
of the `Options` dataclass it is built with, and `Options()` keeps the default `attention=True`,
so compiling the read of `attn` in that instance fails."""

from dataclasses import dataclass

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


@dataclass
class Options:
    dim: int = 4
    attention: bool = True


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Head(Options())

    def construct(self, x):
        return self.block(x)


class Head(nn.Cell):
    def __init__(self, opts):
        super().__init__()
        self.block = Block(opts.dim, attention=opts.attention)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
