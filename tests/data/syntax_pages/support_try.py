import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class SafeDivide(nn.Cell):
    def construct(self, a, b):
        try:
            result = a / b
        except ZeroDivisionError:
            result = a
        return result


print(SafeDivide()(6, 3))
