"""The branch the one instance takes: `Net` passes its own `attention` on to its `Block`, and the
program builds `Net` with its default, `True`, so compiling the read of `attn` fails."""

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


class Net(nn.Cell):
    def __init__(self, attention=True):
        super().__init__()
        self.block = Block(4, attention=attention)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
