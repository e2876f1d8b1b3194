import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class IsArray(nn.Cell):
    def construct(self, x):
        return isinstance(x.asnumpy(), np.ndarray)


print(IsArray()(Tensor(np.array([1, -2, 3]))))
