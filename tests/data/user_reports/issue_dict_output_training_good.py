import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cls = nn.Dense(4, 3)
        self.box = nn.Dense(4, 2)

    def construct(self, x):
        return self.cls(x), self.box(x)


ms.set_context(mode=ms.GRAPH_MODE)
head = Head()
head.set_train(True)
head(Tensor(np.ones((2, 4), np.float32)))
