"""The branch an instance takes, where a classmethod builds the class: `Block.from_config(4,
attention=True)` passes `attention=True` on to `cls(...)`, so compiling the read of `attn` in
that instance fails."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    @classmethod
    def from_config(cls, dim, attention=False):
        return cls(dim, attention=attention)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block.from_config(4, attention=True)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
