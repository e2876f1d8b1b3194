import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Patch(nn.Cell):
    def construct(self, x):
        parts = [[0, 1], 2, "tag", (3, 4)]
        parts[0][1] = 9
        parts[2] = "done"
        return x + parts[0][1], parts[2]


print(Patch()(Tensor(np.ones(3, np.float32))))
