import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class HostSum(nn.Cell):
    def construct(self, a, b):
        return a.asnumpy() * b.asnumpy()


print(HostSum()(Tensor([2, 3]), Tensor([4, 5])))
