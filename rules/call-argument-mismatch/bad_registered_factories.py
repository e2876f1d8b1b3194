"""A call that does not bind, in the branch the instance the program builds takes: `Net.__init__`
builds its `Block`s from its own `re_atten`, whose default `True` the one factory the program calls
(`small`, registered by a decorator in a registry whose getter `model_entrypoint` the program never
calls) leaves as it is. Compiling `self.mixer(x, atten)` fails: `Attention.construct` takes one
input."""

import numpy as np
from mindspore import Tensor, nn

MODELS = {}


def register_model(fn):
    MODELS[fn.__name__] = fn
    return fn


def model_entrypoint(name):
    return MODELS[name]


class Attention(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        return self.proj(x)


class Block(nn.Cell):
    def __init__(self, dim, re_atten=False):
        super().__init__()
        self.re_atten = re_atten
        self.mixer = Attention(dim)

    def construct(self, x, atten=None):
        if self.re_atten:
            return self.mixer(x, atten)  # expect: call-argument-mismatch
        return self.mixer(x)


class Net(nn.Cell):
    def __init__(self, dim=4, depth=2, re_atten=True):
        super().__init__()
        self.blocks = nn.SequentialCell([Block(dim, re_atten=re_atten) for _ in range(depth)])

    def construct(self, x):
        return self.blocks(x)


@register_model
def small(**kwargs):
    return Net(dim=4, **kwargs)


if __name__ == "__main__":
    net = small()
    net(Tensor(np.ones((2, 4), np.float32)))
