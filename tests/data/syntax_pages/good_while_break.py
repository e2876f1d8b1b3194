import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Grow(nn.Cell):
    def construct(self, x, limit):
        while x < limit:
            x = x * 2
            if x > 20:
                break
        return x


print(Grow()(Tensor(1, ms.float32), Tensor(10, ms.float32)))
