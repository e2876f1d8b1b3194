import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Member(nn.Cell):
    def construct(self):
        return (1, None) in ((1, None), 4, 5)


print(Member()())
