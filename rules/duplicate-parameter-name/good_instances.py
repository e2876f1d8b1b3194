"""Instances of one Cell whose Parameters named "w" MindSpore keeps apart: one instance's
Parameter listed twice is one Parameter, and instances that attributes hold have their
Parameters renamed with the attribute path (`first.w`, `second.w`) before the tuple is built."""

import numpy as np
from mindspore import Parameter, ParameterTuple, Tensor, nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((2, 4), np.float32)), name="w")

    def construct(self, x):
        return x * self.w


class OneInstanceTwice(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        only = Scale()
        self.weights = ParameterTuple([only.w, only.w])

    def construct(self, x):
        return x * self.weights[0] + self.weights[1]


class HeldInstances(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        first, second = Scale(), Scale()
        self.first = first
        self.second = second
        self.weights = ParameterTuple([first.w, second.w])

    def construct(self, x):
        return self.first(x) + self.second(x) + self.weights[0] * self.weights[1]
