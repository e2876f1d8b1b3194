"""Distributed fine-tuning from a checkpoint: the layers the checkpoint lacks start apart."""

from mindspore import load_checkpoint, load_param_into_net, nn
from mindspore.communication import init
from mindspore.train import Model


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.backbone = nn.Dense(4, 4)
        self.head = nn.Dense(4, 2)  # new: not in the checkpoint

    def construct(self, x):
        return self.head(self.backbone(x))


def fine_tune(checkpoint, dataset):
    init()  # expect: distributed-without-seed
    net = Net()
    load_param_into_net(net, load_checkpoint(checkpoint), strict_load=False)
    optimizer = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    Model(net, nn.MSELoss(), optimizer).train(1, dataset)
