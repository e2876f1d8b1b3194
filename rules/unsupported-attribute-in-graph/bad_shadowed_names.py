"""A sub-Cell given a name `nn.Cell` already has (its method `cells`): it fails to register, and
building the Cell fails there (KeyError: the child cell already exists), in every mode."""

from mindspore import nn


class Stack(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.cells = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])  # expect: unsupported-attribute-in-graph

    def construct(self, x):
        for cell in self.cells:
            x = cell(x)
        return x
