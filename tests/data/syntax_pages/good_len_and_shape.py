import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Sizes(nn.Cell):
    def construct(self, x):
        rows = len(x)
        cols = x.shape[1]
        return x * rows + cols, len((1, 2, 3)), len({"a": 1})


print(Sizes()(Tensor(np.ones((2, 3), np.float32))))
