"""Distributed inference from a checkpoint: every rank loads the same weights, and nothing trains."""

from mindspore import load_checkpoint, load_param_into_net, nn
from mindspore.communication import init
from mindspore.train import Model


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def predict(checkpoint, batch):
    init()
    net = Net()
    load_param_into_net(net, load_checkpoint(checkpoint))  # the same weights on every rank
    return Model(net).predict(batch)
