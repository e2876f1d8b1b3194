"""numpy arrays handed back from the top graph: STRICT rejects each ("Illegal type in the graph"),
LAX makes it in the Python interpreter. The compiler locates the array where it is made."""

import numpy as np
import mindspore as ms
from mindspore import nn


def mask(n):
    return np.ones(n, np.float32)


class ReturnsAnArray(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * 2, np.zeros(3)  # expect: unsupported-graph-output


class ReturnsANamedArray(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        counts = np.array([1, 2, 3])  # expect: unsupported-graph-output
        return x, counts


class ReturnsAnArrayOfItsShape(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x, np.zeros(x.shape)  # expect: unsupported-graph-output


class ReturnsAHelpersArray(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x, mask(3)  # expect: unsupported-graph-output


@ms.jit
def step(x):  # mslint: inputs=float32[2,3]
    return x + 1, np.eye(2)  # expect: unsupported-graph-output
