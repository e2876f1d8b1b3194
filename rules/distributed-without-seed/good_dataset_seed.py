"""The data pipeline's seed: MindSpore 2.10 also seeds numpy with it, which the initializers draw from."""

import mindspore.dataset as ds
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
    ds.config.set_seed(1)
    return Net()
