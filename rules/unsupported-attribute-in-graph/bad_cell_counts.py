"""Reads in the branch a test on the `len` of an `nn.CellList` or an `nn.SequentialCell` takes:
MindSpore folds the test on the count of the items `__init__` writes out and compiles the branch
it takes, whose reads of attributes `Net` never sets fail."""

import numpy as np
from mindspore import Tensor, nn


class Cells(nn.Cell):
    def __init__(self):
        super().__init__()
        self.branches = nn.CellList([nn.ReLU(), nn.ReLU()])

    def construct(self, x):
        if len(self.branches) == 2:
            x = self.pair_head(x)  # expect: unsupported-attribute-in-graph
        return x


class Stages(nn.Cell):
    def __init__(self):
        super().__init__()
        self.stages = nn.SequentialCell([nn.ReLU()])

    def construct(self, x):
        return self.single_head(x) if len(self.stages) < 2 else x  # expect: unsupported-attribute-in-graph


if __name__ == "__main__":
    data = Tensor(np.ones((2, 4), np.float32))
    Cells()(data)
    Stages()(data)
