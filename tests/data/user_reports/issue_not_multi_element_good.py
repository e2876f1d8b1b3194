import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def construct(self, x):
        if not x.any():
            return x + 1
        return x


ms.set_context(mode=ms.GRAPH_MODE)
x = Tensor(np.ones([2, 2], np.int32))
net = Net()
net(x)
