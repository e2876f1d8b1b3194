import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Accumulate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.total = ms.Parameter(Tensor(np.zeros(3, np.float32)), name="total")

    def construct(self, x):
        self.total = self.total + x
        return self.total


print(Accumulate()(Tensor(np.ones(3, np.float32))))
