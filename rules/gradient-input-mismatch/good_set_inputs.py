"""The fix of bad_set_inputs.py: `set_inputs` leaves the input's second dimension dynamic and
gives the sens a static shape."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = ops.ReLU()

    def construct(self, x):
        return self.relu(x)


class GradWithSense(nn.Cell):
    def __init__(self, network):
        super().__init__()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.network = network

    def construct(self, inputs, sense):
        return self.grad(self.network)(inputs, sense)


if __name__ == "__main__":
    net = GradWithSense(Net())
    net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32), Tensor(shape=[2, 2], dtype=ms.float32))
    net(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32)))
