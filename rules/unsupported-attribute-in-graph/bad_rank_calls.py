"""Reads in the branch a test on `x.dim()` takes for the input the program gives: the rank of a
tensor of static shape is a Python int while compiling, so MindSpore compiles the branch for a
2-D input, whose read of an attribute `Sequence` never sets fails."""

import numpy as np
from mindspore import Tensor, nn


class Sequence(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        if x.dim() == 2:
            x = self.unbatched(x)  # expect: unsupported-attribute-in-graph
        return self.dense(x)


if __name__ == "__main__":
    Sequence(4)(Tensor(np.ones((2, 4), np.float32)))
