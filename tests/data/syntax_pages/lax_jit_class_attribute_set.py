import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit_class
class Box:
    def __init__(self):
        self.size = 1


class Packer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.box = Box()

    def construct(self):
        self.box.size = 50
        return


net = Packer()
net()
print(net.box.size)
