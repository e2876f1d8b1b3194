"""Casts through a primitive held on `self` that leave both sides of a tensor `if` one dtype: to
the input's own dtype, or on both sides."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class SameDtypeOnBothSides(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cast = ops.Cast()

    def construct(self, x):
        if x.sum() > 0:
            y = self.cast(x, ms.float32)
        else:
            y = x * 2
        if x.sum() > 1:
            z = self.cast(x, ms.float16)
        else:
            z = self.cast(x * 2, ms.float16)
        return y, z


class OwnDtypeInOneBranch(nn.Cell):
    """A branch re-binds the name to its cast to the dtype it already has: the join is of one dtype."""

    def __init__(self):
        super().__init__()
        self.cast = ops.Cast()
        self.dense = nn.Dense(3, 3)

    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 0:
            y = self.cast(y, ms.float32)
        return y


if __name__ == "__main__":
    net = SameDtypeOnBothSides()
    net(Tensor(np.ones((2, 3), np.float32)))
    net = OwnDtypeInOneBranch()
    net(Tensor(np.ones((2, 3), np.float32)))
