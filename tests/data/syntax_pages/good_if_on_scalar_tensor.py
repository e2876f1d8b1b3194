import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Pick(nn.Cell):
    def construct(self, a, b):
        if a > b:
            return a - b
        return b - a


print(Pick()(Tensor(3, ms.float32), Tensor(1, ms.float32)))
