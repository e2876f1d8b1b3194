"""The branch an instance takes, where a registry builds it by a name the program's configuration
gives: the configuration `Net` is built with names `Block` in `LAYERS` (`cfg["layer"]`) and gives
it `attention=True`, so compiling the read of `attn` in that instance fails."""

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


LAYERS = {"block": Block, "dense": nn.Dense}


class Net(nn.Cell):
    def __init__(self, cfg):
        super().__init__()
        self.block = LAYERS[cfg["layer"]](4, attention=cfg["attention"])

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net({"layer": "block", "attention": True})
    net(Tensor(np.ones((2, 4), np.float32)))
