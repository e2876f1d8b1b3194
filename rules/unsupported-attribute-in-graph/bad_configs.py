"""The branch an instance takes, where a configuration of literal fields decides it:
`Block.from_config(CONFIG)` builds `cls(cfg["dim"], attention=cfg["attention"])` and `CONFIG`
sets `attention` to `True`, so compiling the read of `attn` in that instance fails."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    @classmethod
    def from_config(cls, cfg):
        return cls(cfg["dim"], attention=cfg["attention"])

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


CONFIG = {"dim": 4, "attention": True}


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = Block.from_config(CONFIG)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
