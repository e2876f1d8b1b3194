"""A tensor `if` whose branches give a name tensors of different shapes, as the compiler infers
them from the inputs the program gives: a reshape to the shape the call passes, a layer that
changes the last dimension. The join compiles into a tensor of unknown shape (a dynamic shape)."""

import numpy as np
from mindspore import Tensor, nn, ops


class ReshapedOnOneSide(nn.Cell):
    def construct(self, x, shape):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            y = ops.reshape(x, shape)
        return y


class ProjectedOnOneSide(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 4)

    def construct(self, x):
        y = x  # expect: branch-shape-mismatch
        if x.sum() > 0:
            y = self.fc(x)
        return y


if __name__ == "__main__":
    ReshapedOnOneSide()(Tensor(np.ones((2, 3), np.float32)), (3, 2))
    ProjectedOnOneSide()(Tensor(np.ones((2, 3), np.float32)))
