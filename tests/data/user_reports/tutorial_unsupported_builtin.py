import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scales = (3, 1, 2)

    def construct(self, x):
        for s in sorted(self.scales):
            x = x * s
        return x


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.ones((2, 3), np.float32)))
