"""The Cells of bad_to_float.py left in float32, or cast to float16 and joining float16: the two
sides of each join have one dtype."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class KeepOrZeros(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = ops.zeros((2, 3), ms.float32)
        return y


class KeepOrHalfZeros(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            y = x
        else:
            y = ops.zeros((2, 3), ms.float16)
        return y


if __name__ == "__main__":
    net = KeepOrZeros()
    net(Tensor(np.ones((2, 3), np.float32)))
    half = KeepOrHalfZeros().to_float(ms.float16)
    half(Tensor(np.ones((2, 3), np.float32)))
