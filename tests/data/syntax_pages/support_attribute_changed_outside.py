import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Offset(nn.Cell):
    def __init__(self):
        super().__init__()
        self.offset = 1

    def construct(self, inputs):
        return inputs + self.offset


net = Offset()
print(net(2))
net.offset = 2
print(net(2))
