import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Show(nn.Cell):
    def construct(self, x):
        print("value:", x)
        return x * 3


print(Show()(Tensor(np.ones(3, np.float32))))
