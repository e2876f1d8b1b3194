"""A module that names no `mindspore.nn`: the fix adds `from mindspore import nn` after its last import."""

import numpy as np

from mindspore import Tensor
from mindspore.nn import Cell, Dense, ReLU  # the layers used below


class StackOfDense(Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.scale = Tensor(np.full((4,), 0.5, np.float32))
        self.layers = [Dense(4, 4), ReLU(), Dense(4, 4)]  # expect: python-container-of-cells

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x * self.scale
