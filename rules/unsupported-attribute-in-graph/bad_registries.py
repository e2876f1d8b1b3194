"""The branch an instance takes, where a registry builds it: `small` is registered by a decorator
and `create_model("small", attention=True)` passes it `attention=True`, which it passes on to
`Block`, so compiling the read of `attn` in that instance fails."""

import numpy as np
from mindspore import Tensor, nn

MODELS = {}


def register_model(fn):
    MODELS[fn.__name__] = fn
    return fn


def create_model(name, **kwargs):
    return MODELS[name](**kwargs)


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
        super().__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


@register_model
def small(**kwargs):
    return Block(4, **kwargs)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block = create_model("small", attention=True)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
