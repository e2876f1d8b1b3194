import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Inner(nn.Cell):
    def construct(self, x):
        return x


class Helper:
    def __init__(self):
        self.value = 10
        self.inner = Inner()

    def apply(self, x):
        return 2 * x * self.inner(x) + self.value


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.helper = Helper()

    def construct(self, x):
        return self.helper.value + self.helper.apply(x)


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.random.randn(2, 2, 3).astype(np.float32)))
