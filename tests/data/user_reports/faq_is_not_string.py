import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def construct(self, x):
        if self.mode is not "train":
            return x
        return x * 2


ms.set_context(mode=ms.GRAPH_MODE)
net = Net("eval")
net(Tensor(np.ones((2, 3), np.float32)))
