import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Join(nn.Cell):
    def construct(self, x):
        head = (x, 1)
        tail = (2, x * 2)
        both = head + tail
        return both[0] + both[3] + both[1]


print(Join()(Tensor(np.ones(3, np.float32))))
