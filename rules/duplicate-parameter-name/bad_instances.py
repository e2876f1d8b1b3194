"""Two instances of one Cell, each with a Parameter named "w", gathered by a `ParameterTuple`
while no attribute holds them: MindSpore prefixes a Parameter's name with its attribute path only
once a Cell's attribute holds its Cell, so both keep "w" and building the tuple fails (2.10)."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 4), np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class TwoInstances(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        first, second = Scale(), Scale()
        self.weights = ParameterTuple([first.w, second.w])  # expect: duplicate-parameter-name

    def construct(self, x):
        return x * self.weights[0] + self.weights[1]
