import numpy as np
import mindspore as ms
from mindspore import nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = ops.ReLU()
        self.cast = ops.Cast()

    def construct(self, x, a, b):
        if a > b:
            return self.cast(self.relu(x), ms.float16)
        return self.cast(self.relu(x), ms.float16)


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(ms.Tensor(np.random.rand(2, 3, 4, 5).astype(np.float32)), ms.Tensor(2, ms.float32), ms.Tensor(6, ms.float32))
