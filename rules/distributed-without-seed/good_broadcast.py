"""No seed, but data parallelism broadcasts rank 0's Parameters when the network is compiled."""

import mindspore as ms
from mindspore import nn
from mindspore.communication import init


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def main():
    init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, parameter_broadcast=True)
    return Net()
