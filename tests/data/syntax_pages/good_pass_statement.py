import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Skip(nn.Cell):
    def construct(self, x):
        for i in range(3):
            if i == 1:
                pass
            else:
                x = x + i
        return x


print(Skip()(Tensor(np.ones(3, np.float32))))
