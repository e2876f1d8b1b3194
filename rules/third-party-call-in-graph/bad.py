"""numpy and math applied to graph values: STRICT rejects them, LAX falls back to Python."""

import math

import numpy as np
from numpy import maximum as np_maximum

import mindspore as ms
from mindspore import nn


class NumpyOnInput(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return np.maximum(x, 0)  # expect: third-party-call-in-graph


class AliasedNumpyFunction(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x * 2
        return np_maximum(y, 0)  # expect: third-party-call-in-graph


class MathOnTensor(nn.Cell):  # mslint: inputs=float32[]
    def construct(self, x):
        return math.exp(x)  # expect: third-party-call-in-graph


class NumpyOnParameter(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="weight")

    def construct(self, x):
        return x + np.sum(self.weight)  # expect: third-party-call-in-graph


def l2_norm(values):
    return np.linalg.norm(values)  # expect: third-party-call-in-graph


class HelperCalledWithTensor(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return l2_norm(x)


@ms.jit  # mslint: inputs=float32[4]
def jit_step(x):
    return np.abs(x)  # expect: third-party-call-in-graph
