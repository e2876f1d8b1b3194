"""Distributed training that never seeds the weights: each replica starts from its own."""

import random

import mindspore as ms
import mindspore.communication as comm
from mindspore import nn
from mindspore.communication import init
from mindspore.communication.management import init as init_cluster


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def main():
    random.seed(1)  # seeds Python's generator, not the weight initializers
    ms.manual_seed(1)  # seeds the generator of random operators, not the weight initializers
    init()  # expect: distributed-without-seed
    return Net()


def main_with_module_alias():
    comm.init()  # expect: distributed-without-seed
    return Net()


def main_with_management():
    init_cluster()  # expect: distributed-without-seed
    return Net()
