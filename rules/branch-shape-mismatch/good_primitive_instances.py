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


if __name__ == "__main__":
    net = SameDtypeOnBothSides()
    net(Tensor(np.ones((2, 3), np.float32)))
