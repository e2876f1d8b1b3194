"""A tuple sens for a tensor output runs in PyNative mode, which this script selects: the
gradient is not compiled, and PyNative takes the tuple's one tensor."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_context(mode=ms.PYNATIVE_MODE)


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


net = Net()
x = Tensor(np.ones((2, 4), np.float32))
grad = ops.GradOperation(get_all=True, sens_param=True)
grad(net)(x, (ops.ones((2, 3), ms.float32),))
