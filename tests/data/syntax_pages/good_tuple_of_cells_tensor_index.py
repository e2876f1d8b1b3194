import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Pick(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = (nn.ReLU(), nn.Sigmoid())

    def construct(self, index, x):
        return self.layers[index](x)


print(Pick()(Tensor(1, ms.int32), Tensor(np.ones(3, np.float32))))
