import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Search(nn.Cell):
    def construct(self, x):
        for step in range(3):
            x = x + step
        else:
            x = x * 2
        return x


print(Search()(Tensor(np.ones(3, np.float32))))
