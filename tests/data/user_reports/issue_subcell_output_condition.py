import numpy as np
import mindspore as ms
from mindspore import nn, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 10)

    def construct(self, x):
        logits = self.head(x)
        if logits > 0:
            return logits
        return -logits


ms.set_context(mode=ms.GRAPH_MODE)
net = Net()
net(Tensor(np.ones((2, 4), np.float32)))
