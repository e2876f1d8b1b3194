"""A cast through a primitive held on `self` on one side of a tensor `if`: the input the program
gives is float32, the cast makes float16, and the join of the two fails ("Type Join Failed")."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class HalfOnOneSide(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cast = ops.Cast()

    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            y = self.cast(x, ms.float16)
        else:
            y = x
        return y


class HalfInOneBranch(nn.Cell):
    """The FAQ's case as users write it: one branch re-binds the name to its own cast, the other
    keeps the float32 value a sub-Cell gave it before the `if`."""

    def __init__(self):
        super().__init__()
        self.cast = ops.Cast()
        self.dense = nn.Dense(3, 3)

    def construct(self, x):
        y = self.dense(x)  # expect: branch-shape-mismatch
        if y.sum() > 0:
            y = self.cast(y, ms.float16)
        return y


if __name__ == "__main__":
    net = HalfOnOneSide()
    net(Tensor(np.ones((2, 3), np.float32)))
    net = HalfInOneBranch()
    net(Tensor(np.ones((2, 3), np.float32)))
