"""A seed that differs per rank, a PyTorch DDP habit: DDP broadcasts rank 0's weights at start,
MindSpore does not, so the replicas start (and stay) apart."""

import os

import mindspore as ms
from mindspore import nn
from mindspore.communication import init

RANK = int(os.getenv("RANK_ID", "0"))  # msrun exports RANK_ID to each worker
ms.set_seed(1234 + RANK)


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def main():
    init()  # expect: distributed-without-seed
    return Net()
