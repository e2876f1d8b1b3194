import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Rounder(nn.Cell):
    def construct(self, x):
        return round(x)


print(Rounder()(Tensor(np.array([1.234, 5.678], np.float32))))
