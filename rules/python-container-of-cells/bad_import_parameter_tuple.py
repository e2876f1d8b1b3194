"""Parameters in plain lists: `ParameterTuple` registers them, imported by the fix when the module has
no name for it; a list the Cell changes later cannot become a tuple and gets no fix."""

import numpy as np

from mindspore import Parameter, Tensor, nn


def _ones():
    return Tensor(np.ones(4, np.float32))


class ScaleList(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.scales = [  # expect: python-container-of-cells
            Parameter(_ones(), name="s0"),
            Parameter(_ones(), name="s1"),
        ]

    def construct(self, x):
        return x * self.scales[0] + self.scales[-1]


class GrownScaleList(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self, depth=2):
        super().__init__()
        self.scales = []  # expect: python-container-of-cells
        for i in range(depth):
            self.scales.append(Parameter(_ones(), name=f"s{i}"))

    def construct(self, x):
        for scale in self.scales:
            x = x * scale
        return x


class ReplacedScale(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.scales = [Parameter(_ones(), name="s0")]  # expect: python-container-of-cells
        self.scales[0] = Parameter(_ones() * 2, name="s1")

    def construct(self, x):
        return x * self.scales[0]
