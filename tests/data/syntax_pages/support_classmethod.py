import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Doubler(nn.Cell):
    @classmethod
    def twice(cls, value):
        return value * 2

    def construct(self, x):
        return self.twice(x)


print(Doubler()(Tensor(np.ones(3, np.float32))))
