import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Scaler:
    def __init__(self):
        self.value = 10

    @ms.jit
    def apply(self, x):
        return 2 * x + self.value


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scaler = Scaler()

    def construct(self, x):
        return self.scaler.value + self.scaler.apply(x)


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.random.randn(2, 2, 3).astype(np.float32)))
