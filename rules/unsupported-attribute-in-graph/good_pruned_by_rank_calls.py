"""Reads in the branches a test on `x.dim()` or `x.ndimension()` skips for the input the program
gives: the rank of a tensor of static shape is a Python int while compiling, as `x.ndim` is.
MindSpore folds the test and never evaluates the branch it skips (2.10, STRICT and LAX compile),
so the reads of attributes `Sequence` never sets there are never compiled."""

import numpy as np
from mindspore import Tensor, nn


class Sequence(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        if x.dim() == 3:
            x = self.batched(x)
        y = self.stepped(x) if x.ndimension() > 2 else x
        return self.dense(y)


if __name__ == "__main__":
    Sequence(4)(Tensor(np.ones((2, 4), np.float32)))
