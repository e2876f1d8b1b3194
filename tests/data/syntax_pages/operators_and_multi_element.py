import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Both(nn.Cell):
    def construct(self, a, b):
        return a and b


print(Both()(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32))))
