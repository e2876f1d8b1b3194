"""A `@jit` function called from Python with the arguments it takes (a default left out), and
spreads of tuples whose items fill the parameters."""

import numpy as np
from mindspore import Tensor, jit, nn


@jit
def add(x, y=1):
    return x + y


class Attention(nn.Cell):
    def construct(self, x, y):
        return x * y


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attention = Attention()

    def construct(self, x):
        pair = (x, x)
        return self.attention(*pair)


def run():
    x = Tensor(np.ones((2,), np.float32))
    inputs = (x, x)
    return add(x), add(*inputs), Attention()(*inputs), Net()(x)


if __name__ == "__main__":
    run()
