"""Reads in the branches `self.training` skips in a Cell the program never switches to training:
`nn.Cell.__init__` sets `training` to False, and only `set_train` (or what calls it: `Model`,
`nn.WithGradCell`) changes it. MindSpore folds the test on it and never evaluates the branch it
skips (2.10, STRICT and LAX compile), so the reads of attributes `DropPath` never sets there are
never compiled."""

import numpy as np
from mindspore import Tensor, nn


class DropPath(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)

    def construct(self, x):
        x = self.dense(x)
        if self.training and self.drop_prob > 0:
            x = self.drop(x)
        if not self.training or self.keep_prob == 1.0:
            return x
        return self.scale(x)


if __name__ == "__main__":
    DropPath(4)(Tensor(np.ones((2, 4), np.float32)))
