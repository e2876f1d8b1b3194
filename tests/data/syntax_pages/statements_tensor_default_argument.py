import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Biased(nn.Cell):
    def construct(self, x, bias=Tensor(np.ones(3, np.float32))):
        return x + bias


print(Biased()(Tensor(np.ones(3, np.float32))))
