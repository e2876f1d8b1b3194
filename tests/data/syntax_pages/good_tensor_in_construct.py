import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Make(nn.Cell):
    def construct(self, x):
        base = Tensor([1, 2, 3], ms.float32)
        return x + base


print(Make()(Tensor(np.ones(3, np.float32))))
