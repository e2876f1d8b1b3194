"""Reads in a branch the compiler never reads, for every instance the program builds, where the
program's own setup gives the constructor's `attention`: a namespace of literals bound in its
`__main__` block, a dict of literals bound in `main()`, and the default of an `argparse` flag
(`store_true`: False, what a plain run gets) that a helper of the module parses. Every instance is given `False`, and MindSpore folds the test while
parsing (2.10, STRICT and LAX compile)."""

import argparse
from types import SimpleNamespace

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


class Head(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


class Stem(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--attention", action="store_true")
    return parser.parse_args()


def main():
    args = parse_args()
    stem = Stem(4, attention=args.attention)
    stem(Tensor(np.ones((2, 4), np.float32)))
    cfg = {"dim": 4, "attention": False}
    head = Head(cfg["dim"], attention=cfg["attention"])
    head(Tensor(np.ones((2, 4), np.float32)))


if __name__ == "__main__":
    config = SimpleNamespace(dim=4, attention=False)
    block = Block(config.dim, attention=config.attention)
    block(Tensor(np.ones((2, 4), np.float32)))
    main()
