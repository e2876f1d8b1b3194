"""Reads in branches on the `len` of an `nn.CellList` or an `nn.SequentialCell` that `__init__`
builds of items it writes out (a list literal, or a list it appends to outside loops): MindSpore
folds the test on the count and never evaluates the branch it skips (2.10, STRICT and LAX compile),
so the reads of attributes `Net` never sets there are never compiled."""

import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.branches = nn.CellList([nn.ReLU(), nn.ReLU()])
        layers = [nn.ReLU()]
        layers.append(nn.Tanh())
        self.stages = nn.SequentialCell(layers)

    def construct(self, x):
        if len(self.branches) < 2:
            x = self.single_head(x)
        if len(self.stages) != 2:
            x = self.resize(x)
        return self.stages(x)


if __name__ == "__main__":
    Net()(Tensor(np.ones((2, 4), np.float32)))
