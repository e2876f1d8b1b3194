"""Module-level Parameters of one name that one graph reads: the graph takes them in unrenamed."""

import numpy as np
from mindspore import Parameter, Tensor, nn

SCALE = Parameter(Tensor(np.ones((2, 4), np.float32)), name="scale")
SHIFT = Parameter(Tensor(np.ones((2, 4), np.float32)), name="scale")


class ReadsTwoGlobalsOfOneName(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * SCALE + SHIFT  # expect: duplicate-parameter-name


class OwnsOneNamedLikeAGlobal(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.gain = Parameter(Tensor(np.ones((2, 4), np.float32)), name="scale")

    def construct(self, x):
        return x * self.gain + SCALE  # expect: duplicate-parameter-name
