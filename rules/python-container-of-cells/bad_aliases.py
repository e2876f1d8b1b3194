"""The fixes name the wrappers through the module's own imports, aliases included."""

import numpy as np

import mindspore
import mindspore.nn as msnn
from mindspore.nn import CellList  # the fixes reuse it


def _names(parameters):
    return [p.name for p in parameters]


class AliasedList(msnn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = [msnn.Dense(4, 4), msnn.Dense(4, 4)]  # expect: python-container-of-cells

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class AliasedDict(msnn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.heads = {"a": msnn.Dense(4, 2), "b": msnn.Dense(4, 2)}  # expect: python-container-of-cells

    def construct(self, x):
        return self.heads["a"](x) + self.heads["b"](x)


class BareTuple(msnn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.pair = msnn.Dense(4, 4), msnn.Dense(4, 4)  # expect: python-container-of-cells

    def construct(self, x):
        return self.pair[1](self.pair[0](x))


class ParametersByComprehension(msnn.Cell):  # mslint: inputs=float32[4]
    def __init__(self, depth=2):
        super().__init__()
        self.weights = [  # expect: python-container-of-cells
            mindspore.Parameter(mindspore.Tensor(np.ones(4), mindspore.float32), name=f"w{i}") for i in range(depth)
        ]

    def construct(self, x):
        for i, weight in enumerate(self.weights):
            x = x + weight * i
        return x + len(self.weights)


class ParametersReadByHelper(msnn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.weights = [  # expect: python-container-of-cells
            mindspore.Parameter(mindspore.Tensor(np.ones(4), mindspore.float32), name="w0"),
            mindspore.Parameter(mindspore.Tensor(np.ones(4), mindspore.float32), name="w1"),
        ]
        self.weight_names = _names(self.weights)

    def construct(self, x):
        return x * self.weights[0] * self.weights[1]
