"""Distributed training seeded before the network is built: the replicas start equal."""

from mindspore import nn, set_seed
from mindspore.communication import get_rank, init


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def main():
    init()
    set_seed(1)  # every rank draws the same initial weights
    net = Net()
    return net, get_rank()
