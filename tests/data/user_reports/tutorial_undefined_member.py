import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()

    @ms.jit
    def construct(self, x):
        return x + self.y


net = Net()
net(1)
