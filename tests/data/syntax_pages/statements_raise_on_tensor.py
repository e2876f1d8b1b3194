import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Guard(nn.Cell):
    def construct(self, a, b):
        if a >= b:
            raise ValueError("a must be smaller than b.")
        return a + b


print(Guard()(Tensor(3), Tensor(1)))
