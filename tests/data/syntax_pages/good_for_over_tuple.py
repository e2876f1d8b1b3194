import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Chain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.steps = (nn.ReLU(), nn.Tanh())

    def construct(self, x):
        for step in self.steps:
            x = step(x)
        return x


print(Chain()(Tensor(np.ones(3, np.float32))))
