"""The branch an instance takes, where its arguments are spread from a constant tuple:
`Block(*sizes)` with `sizes = (4, True)` gives `attention=True`, so compiling the read of `attn`
in that instance fails."""

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
    def __init__(self):
        super().__init__()
        sizes = (4, True)
        self.block = Block(*sizes)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
