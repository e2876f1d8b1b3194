"""A tensor `if` whose branches give a name tensors of one shape, as the compiler infers them
from the inputs the program gives: a reshape to the input's own shape, a layer that keeps the
last dimension."""

import numpy as np
from mindspore import Tensor, nn, ops


class ReshapedToItsOwnShape(nn.Cell):
    def construct(self, x, shape):
        y = x
        if x.sum() > 0:
            y = ops.reshape(x, shape)
        return y


class ProjectedToItsOwnWidth(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)

    def construct(self, x):
        y = x
        if x.sum() > 0:
            y = self.fc(x)
        return y


if __name__ == "__main__":
    ReshapedToItsOwnShape()(Tensor(np.ones((2, 3), np.float32)), (2, 3))
    ProjectedToItsOwnWidth()(Tensor(np.ones((2, 3), np.float32)))
