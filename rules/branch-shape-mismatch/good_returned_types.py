"""Joins of returned values that compile (see bad_returned_types.py): two tuples, even of
different lengths, two scalars of one type, and a scalar or a tuple chosen on a Python constant
(one branch is compiled)."""

import numpy as np
from mindspore import Tensor, nn


class TwoTuples(nn.Cell):
    def construct(self, x):
        if x > 1:
            return (1, 2)
        return (1, 2, 3)


class SameTypes(nn.Cell):
    def construct(self, x):
        return 1 if x > 1 else 2


class ChosenOnAConstant(nn.Cell):
    def __init__(self):
        super().__init__()
        self.single = True

    def construct(self, x):
        if self.single:
            return 1
        return (1, 2)


if __name__ == "__main__":
    x = Tensor(np.ones([1], np.int32))
    net = TwoTuples()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = SameTypes()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = ChosenOnAConstant()
    out = net(x)
