import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Summer(nn.Cell):
    def construct(self, x):
        total = ops.ReduceSum(True)
        return total(x, 1)


print(Summer()(Tensor(np.ones((2, 3, 4), np.float32))).shape)
