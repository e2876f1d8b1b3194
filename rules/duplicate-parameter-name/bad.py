"""Containers of Parameters that MindSpore refuses to build: two Parameters of one name."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


def make_weight(name="weight"):
    return Parameter(Tensor(np.ones((2, 4), np.float32)), name=name)


class MadeInAComprehension(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.weights = ParameterTuple([make_weight("w") for _ in range(2)])  # expect: duplicate-parameter-name

    def construct(self, x):
        return x * self.weights[0] + self.weights[1]


class AHelperCalledTwice(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.weights = ParameterTuple((make_weight(), make_weight()))  # expect: duplicate-parameter-name

    def construct(self, x):
        return x * self.weights[0] + self.weights[1]


class AppendedInALoop(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        weights = []
        for _ in range(3):
            weights.append(Parameter(Tensor(np.ones((2, 4), np.float32)), name="w"))
        self.weights = ParameterTuple(weights)  # expect: duplicate-parameter-name

    def construct(self, x):
        return x * self.weights[0] + self.weights[2]


class ALoopOfUnknownLength(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, layers=2):
        super().__init__()
        self.weights = ParameterTuple([make_weight("w") for _ in range(layers)])  # expect: duplicate-parameter-name

    def construct(self, x):
        return x * self.weights[0]
