import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit_class
class Echo(nn.Cell):
    def construct(self, x):
        return x


print(Echo()(Tensor(1)))
