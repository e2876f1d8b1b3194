import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Builtins(nn.Cell):
    def construct(self, x, y):
        out = x
        for i, (t, k) in enumerate(zip((x, y), (1, 2))):
            out = out + t * k + i
        return max(x), max((1, 5), (2, 0)), abs(out), len((x, y)), isinstance(x, Tensor)


print(Builtins()(Tensor(np.ones(3, np.float32)), Tensor(np.full(3, 2, np.float32))))
