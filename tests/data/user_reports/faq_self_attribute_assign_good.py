import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, Parameter


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = Parameter(Tensor(0, ms.int32), name="steps", requires_grad=False)

    def construct(self, x):
        self.steps = self.steps + 1
        return x * 2


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.ones((2, 3), np.float32)))
