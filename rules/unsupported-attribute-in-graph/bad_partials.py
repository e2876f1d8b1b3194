"""The branch an instance takes, where `functools.partial` objects build it: `Net`'s parameter
`block=partial(Block, attention=True)` is only called (`block(4)`), so that instance is given
`attention=True` and compiling the read of `attn` fails; `make = partial(Block, attention=True)`
builds the other, whose call overrides the keyword (`make(4, attention=False)`)."""

from functools import partial

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
    def __init__(self, block=partial(Block, attention=True)):
        super().__init__()
        make = partial(Block, attention=True)
        self.first = make(4, attention=False)
        self.second = block(4)

    def construct(self, x):
        return self.second(self.first(x))


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
