"""A sub-Cell built only where a flag says so, called with the arguments its `construct` takes; and
one called with others only on a branch that the instance's flag prunes (the compiler never reaches
the call)."""

import numpy as np
from mindspore import Tensor, nn


class Attention(nn.Cell):
    def construct(self, x):
        return x * 2


class Gated(nn.Cell):
    def __init__(self, gated):
        super().__init__()
        self.gated = gated
        self.attention = Attention() if gated else None

    def construct(self, x):
        return self.attention(x) if self.gated else x


class Pruned(nn.Cell):
    def __init__(self, gated):
        super().__init__()
        self.gated = gated
        self.attention = Attention() if gated else None

    def construct(self, x):
        return self.attention(x, x) if self.gated else x


if __name__ == "__main__":
    inputs = Tensor(np.ones((2, 4), np.float32))
    Gated(True)(inputs)
    Pruned(False)(inputs)
