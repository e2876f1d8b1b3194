"""Reads in a branch the compiler never reads, for every instance the program builds, where the
instances come out of registries looked up by a literal name: the factory `small` is registered
by a decorator and built by `create_model("small", attention=False)`, which passes its keywords
on; `Block` itself sits in a dict of classes and is built by `LAYERS["block"](4,
attention=False)`. The names may come from a module constant (`LAYERS[ARCH]`) or a field of the
configuration `Net` is built with (`create_model(cfg["model"], ...)`). Every instance is given `False`, and MindSpore folds the test while parsing
(2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn

MODELS = {}


def register_model(fn):
    MODELS[fn.__name__] = fn
    return fn


def create_model(name, **kwargs):
    return MODELS[name](**kwargs)


class Block(nn.Cell):
    def __init__(self, dim, attention=True):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        return self.proj(x)


@register_model
def small(**kwargs):
    return Block(4, **kwargs)


LAYERS = {"block": Block}
ARCH = "block"


class Net(nn.Cell):
    def __init__(self, cfg):
        super().__init__()
        self.first = create_model("small", attention=False)
        self.second = LAYERS["block"](4, attention=False)
        self.third = LAYERS[ARCH](4, attention=False)
        self.fourth = create_model(cfg["model"], attention=False)

    def construct(self, x):
        return self.fourth(self.third(self.second(self.first(x))))


if __name__ == "__main__":
    net = Net({"model": "small"})
    net(Tensor(np.ones((2, 4), np.float32)))
