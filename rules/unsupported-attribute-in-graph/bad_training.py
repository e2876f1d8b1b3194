"""Reads in the branch a test on `self.training` takes in a Cell the program never switches to
training: `nn.Cell.__init__` sets `training` to False, so MindSpore compiles the branch
`not self.training` guards, whose read of an attribute `Head` never sets fails."""

import numpy as np
from mindspore import Tensor, nn


class Head(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        if not self.training:
            return self.eval_head(x)  # expect: unsupported-attribute-in-graph
        return self.dense(x)


if __name__ == "__main__":
    Head(4)(Tensor(np.ones((2, 4), np.float32)))
