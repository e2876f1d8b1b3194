import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


class TrainStep(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.grad = ops.GradOperation(sens_param=True)

    def construct(self, x):
        sens = ops.ones((2, 3), ms.int32)
        return self.grad(self.network)(x, sens)


ms.set_context(mode=ms.GRAPH_MODE)
step = TrainStep(Net())
step(Tensor(np.ones((2, 4), np.float32)))
