import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cast = ops.Cast()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        y = self.dense(x)
        if y.sum() > 0:
            y = self.cast(y, ms.float16)
        return y


ms.set_context(mode=ms.GRAPH_MODE)
net = Block()
net(Tensor(np.ones((2, 4), np.float32)))
