import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Check(nn.Cell):
    def construct(self, x):
        assert x in [5, 6, 7]
        return x


print(Check()(Tensor(0)))
