import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Adder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.factor = 5

    def construct(self):
        self.extra = 1
        return


Adder()()
