import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = 0

    def construct(self, x):
        self.steps = self.steps + 1
        return x * 2


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.ones((2, 3), np.float32)))
