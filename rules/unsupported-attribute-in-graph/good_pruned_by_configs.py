"""Reads in a branch the compiler never reads, for every instance the program builds, where a
configuration of literal fields decides it: `Block.from_config` builds `cls(cfg["dim"],
attention=cfg["attention"])`, and the program passes it the module's `CONFIG`, whose `attention`
is `False` and which nothing changes; `Head` reads a field (`opts.attention`) of a namespace, of
an instance of a class of literal attributes (`Settings()`) and of a dataclass
(`Options(attention=False)`). Every instance is given `False`, and MindSpore folds the tests
while parsing (2.10, STRICT and LAX compile)."""

from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    @classmethod
    def from_config(cls, cfg):
        return cls(cfg["dim"], attention=cfg["attention"])

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


class Head(nn.Cell):
    def __init__(self, opts):
        super().__init__()
        self.block = Block(opts.dim, attention=opts.attention)

    def construct(self, x):
        return self.block(x)


CONFIG = {"dim": 4, "attention": False}


class Settings:
    dim = 4
    attention = False


@dataclass
class Options:
    dim: int = 4
    attention: bool = True


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = Block.from_config(CONFIG)
        self.head = Head(SimpleNamespace(dim=4, attention=False))
        self.tail = Head(Settings())
        self.last = Head(Options(attention=False))

    def construct(self, x):
        return self.last(self.tail(self.head(self.body(x))))


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
