import numpy as np
import mindspore as ms
from mindspore import nn, Tensor, ParameterTuple


class WithL2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.weights = ParameterTuple(self.dense.trainable_params())

    def construct(self, x):
        y = self.dense(x)
        l2 = 0.0
        for p in self.weights:
            l2 = l2 + (p * p).sum()
        return y.sum() + 0.01 * l2


ms.set_context(mode=ms.GRAPH_MODE)
net = WithL2()
net(Tensor(np.ones((2, 4), np.float32)))
