"""Parameters whose names MindSpore keeps apart."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


def make_weight(name="weight"):
    return Parameter(Tensor(np.ones((2, 4), np.float32)), name=name)


class NamedFromTheLoop(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.weights = ParameterTuple([make_weight(f"w{i}") for i in range(2)])
        self.unnamed = ParameterTuple([Parameter(Tensor(np.ones((2, 4), np.float32))) for _ in range(2)])

    def construct(self, x):
        return x * self.weights[0] + self.weights[1] + self.unnamed[0] * self.unnamed[1]


class OneParameterListedTwice(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        shared = make_weight("shared")
        self.weights = ParameterTuple((shared, shared))

    def construct(self, x):
        return x * self.weights[0] + self.weights[1]


class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = make_weight("w")

    def construct(self, x):
        return x * self.w


class SeparateCells(nn.Cell):  # mslint: inputs=float32[2,4]
    """Each Holder's `w` is renamed with its attribute path: `first.w`, `second.w`, `blocks.0.w`, ..."""

    def __init__(self):
        super().__init__()
        self.first = Holder()
        self.second = Holder()
        self.blocks = nn.CellList([Holder() for _ in range(2)])

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return self.second(self.first(x))
