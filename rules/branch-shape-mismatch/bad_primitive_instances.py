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


if __name__ == "__main__":
    net = HalfOnOneSide()
    net(Tensor(np.ones((2, 3), np.float32)))
