import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Inner(nn.Cell):
    def construct(self, x):
        return x


class Helper:
    def __init__(self):
        self.value = 10

    def apply(self, x, y):
        return 2 * x * y + self.value


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.helper = Helper()
        self.inner = Inner()

    def construct(self, x):
        y = self.inner(x)
        return self.helper.value + self.helper.apply(x, y)


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.random.randn(2, 2, 3).astype(np.float32)))
