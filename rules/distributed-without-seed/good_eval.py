"""An evaluation script (its name says so, and it never trains): distributed ranks that do not
train have no weights to keep alike; they take them from the project's own loader."""

import numpy as np

import mindspore as ms
from mindspore import nn
from mindspore.communication import init


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def restore(net, arrays):
    for parameter, array in zip(net.trainable_params(), arrays):
        parameter.set_data(ms.Tensor(array))


def evaluate(arrays, batch):
    init()
    net = Net()
    restore(net, arrays)
    return float(np.abs(net(batch).asnumpy()).mean())
