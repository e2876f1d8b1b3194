import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class SkipOdd(nn.Cell):
    def construct(self, x):
        for i in range(4):
            if i % 2 == 1:
                continue
            x = x + i
        return x


print(SkipOdd()(Tensor(np.ones(3, np.float32))))
