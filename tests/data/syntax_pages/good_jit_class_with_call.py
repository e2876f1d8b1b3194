import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


@ms.jit_class
class Helper:
    def __init__(self, scale):
        self.scale = scale

    def __call__(self, a, b):
        return (a + b) * self.scale


class Caller(nn.Cell):
    def construct(self, a, b):
        helper = Helper(3)
        return helper(a, b)


print(Caller()(Tensor(2, ms.int32), Tensor(4, ms.int32)))
