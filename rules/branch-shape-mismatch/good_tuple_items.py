"""Tuples joined by a tensor `if` whose items agree place by place: the same cast on both sides,
Python numbers on both sides."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class HalfItemOnBothSides(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            out = (x, ops.cast(x, ms.float16))
        else:
            out = (x * 2, x.astype(ms.float16))
        return out


class NumbersOnBothSides(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:
            return x, (x, 1)
        return x * 2, (x, 2)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.ones((2, 3), np.float32))
    HalfItemOnBothSides()(x)
    NumbersOnBothSides()(x)
