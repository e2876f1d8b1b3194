"""A script that calls its Cell with arguments its `construct` takes, directly and through
MindSpore's `WithLossCell`, which takes its own (the data and the label)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x, scale=1.0):
        return x * scale


x = Tensor(np.ones((2, 3), np.float32))
net = Net()
net(x)
net(x, 2.0)
net(x, scale=2.0)
loss_net = nn.WithLossCell(net, nn.MSELoss())
loss_net(x, x)
