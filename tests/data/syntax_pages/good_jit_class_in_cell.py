import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit_class
class Weights:
    def __init__(self):
        self.values = Tensor(np.array([1, 2, 3], np.float32))

    def scaled(self, k):
        return self.values * k


class Use(nn.Cell):
    def __init__(self):
        super().__init__()
        self.weights = Weights()

    def construct(self, x):
        return self.weights.scaled(x)


print(Use()(Tensor(2, ms.float32)))
