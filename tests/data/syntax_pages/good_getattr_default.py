import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Lookup(nn.Cell):
    def construct(self, x):
        return getattr(x, "no_such_field", 7)


print(Lookup()(Tensor(np.ones(3, np.float32))))
