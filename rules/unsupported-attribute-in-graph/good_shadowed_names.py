"""Sub-Cells under names of their own; a plain value may take the name of a method graph code
never calls (`self.to`), as building and compiling do not use it."""

from mindspore import nn


class Stack(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
        self.to = 4

    def construct(self, x):
        for cell in self.blocks:
            x = cell(x)
        return x
