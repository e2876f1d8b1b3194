import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Inner(nn.Cell):
    def construct(self, x):
        def square_plus(value, extra=1):
            return value * value + extra

        return square_plus(x), square_plus(x, extra=3)


print(Inner()(Tensor(np.ones(3, np.float32))))
