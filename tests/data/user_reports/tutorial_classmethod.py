import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    @classmethod
    def add(cls, x, y):
        return x + y

    @ms.jit
    def construct(self, x, y):
        return self.add(x, y)


net = Net()
net(ms.tensor(1), ms.tensor(2))
