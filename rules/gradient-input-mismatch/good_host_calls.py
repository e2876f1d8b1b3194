"""Gradients a training script calls from Python in GRAPH_MODE, given what the network's
`float32[2, 3]` output and its one input take."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


net = Net()
x = Tensor(np.ones((2, 4), np.float32))
grad = ops.GradOperation(get_all=True, sens_param=True)
grad(net)(x, ops.ones((2, 3), ms.float32))
grad(net)(x, ops.ones_like(net(x)))
ms.grad(net, grad_position=0)(x)
ms.value_and_grad(net, None, net.trainable_params())(x)
grad_fn = grad(net)
grad_fn(x, ops.ones((2, 3), ms.float32))
step = ms.value_and_grad(net, 0)
step(x)
