"""A communication demo: every rank sums a tensor with the others'. The program builds no
Parameter (its one Cell holds a primitive), so there is nothing a seed would make equal."""

import numpy as np
from mindspore import Tensor, nn, ops
from mindspore.communication import get_rank, init


class Scale(nn.Cell):  # mslint: inputs=float32[1,2]
    def __init__(self):
        super().__init__()
        self.mul = ops.Mul()

    def construct(self, x):
        return self.mul(x, 2.0)


def main():
    init()
    data = Tensor(np.ones((1, 2), np.float32)) * (get_rank() + 1)
    summed = ops.AllReduce(ops.ReduceOp.SUM)(Scale()(data))
    print(f"rank {get_rank()}: {summed}")
