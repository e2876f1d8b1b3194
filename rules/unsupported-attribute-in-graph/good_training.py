"""A Cell that reads `self.training` and sets every attribute both branches read: the program
never switches it to training, so MindSpore compiles the branch `False` takes (2.10, STRICT and
LAX compile); the other one stays a branch for training."""

import numpy as np
from mindspore import Tensor, nn


class Head(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.drop = nn.Dropout(p=0.1)

    def construct(self, x):
        if not self.training or self.drop is None:
            return self.dense(x)
        return self.drop(self.dense(x))


if __name__ == "__main__":
    Head(4)(Tensor(np.ones((2, 4), np.float32)))
