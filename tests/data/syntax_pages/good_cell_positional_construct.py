import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Builder(nn.Cell):
    def construct(self, x):
        act = nn.LeakyReLU(0.1)
        return act(x)


print(Builder()(Tensor(np.ones(3, np.float32))))
