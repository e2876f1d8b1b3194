"""A Cell that creates no Parameters computes with one argument as a number, and keeps the other,
a Cell that owns some: a plain list of them hides those Parameters (two of the same name make the
compile fail)."""

import numpy as np

from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self, inner, batch_size):
        super().__init__()
        self.inner = inner
        self.scale = float(np.power(batch_size, 0.5))

    def construct(self, x):
        return self.inner(x) / self.scale


class Heads(nn.Cell):
    def __init__(self, size):
        super().__init__()
        self.heads = [Scaled(nn.Dense(4, 4), size), Scaled(nn.Dense(4, 4), size)]  # expect: python-container-of-cells

    def construct(self, x):
        for head in self.heads:
            x = head(x)
        return x


class Model(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.heads = Heads(2)

    def construct(self, x):
        return self.heads(x)
