import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def construct(self, x):
        yield x * 2


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.ones((2, 3), np.float32)))
