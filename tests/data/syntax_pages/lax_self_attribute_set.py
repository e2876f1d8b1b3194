import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Mutator(nn.Cell):
    def __init__(self):
        super().__init__()
        self.factor = 5

    def construct(self):
        self.factor = 7
        return


net = Mutator()
net()
print(net.factor)
