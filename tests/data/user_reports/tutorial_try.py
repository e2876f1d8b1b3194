import mindspore as ms
from mindspore import nn


class Net(nn.Cell):
    @ms.jit
    def construct(self, x, y):
        out = 1
        try:
            out = x / y
        except ZeroDivisionError:
            out = 0
        return out


net = Net()
net(1, 0)
