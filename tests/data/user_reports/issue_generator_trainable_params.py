import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class WithL2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        y = self.dense(x)
        l2 = sum((p * p).sum() for p in self.trainable_params())
        return y.sum() + 0.01 * l2


ms.set_context(mode=ms.GRAPH_MODE)
net = WithL2()
net(Tensor(np.ones((2, 4), np.float32)))
