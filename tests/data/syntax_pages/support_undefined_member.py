import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Shift(nn.Cell):
    def __init__(self):
        super().__init__()
        self.offset = 1

    def construct(self, x):
        return x + self.scale


print(Shift()(Tensor(np.ones(3, np.float32))))
