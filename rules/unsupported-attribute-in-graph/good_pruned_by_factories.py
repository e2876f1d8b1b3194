"""Reads in a branch the compiler never reads, for every instance the program builds: `Block`
keeps its constructor's `attention`, and its instances are made by factory functions, one passing
on its caller's keywords (`small(attention=False)`), one its own default (`plain()`), and by
`functools.partial` objects that only their names are called by: `Net`'s parameter
`block=partial(Block, attention=False)` then `block(4)`, and `make = partial(Block,
attention=False)` then `make(4)`. Every instance is given `False`, and MindSpore folds the test
while parsing (2.10, STRICT and LAX compile)."""

from functools import partial

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


def small(**kwargs):
    return Block(4, **kwargs)


def plain(attention=False):
    return Block(4, attention)


class Net(nn.Cell):
    def __init__(self, block=partial(Block, attention=False)):
        super().__init__()
        self.first = small(attention=False)
        self.second = plain()
        self.third = block(4)
        make = partial(Block, attention=False)
        self.fourth = make(4)

    def construct(self, x):
        return self.fourth(self.third(self.second(self.first(x))))


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
