"""A gradient's sens that `set_inputs` makes dynamic, as the FAQ's example does: the Cell is
compiled for the tensors `set_inputs` gives (`None` a dynamic dimension), not for those it is
then called with, and a gradient cannot start from a sens of a dynamic shape (2.10, STRICT and
LAX: `ValueError: The shape of sense must not be dynamic shape.`)."""

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
        return self.grad(self.network)(inputs, sense)  # expect: gradient-input-mismatch


if __name__ == "__main__":
    net = GradWithSense(Net())
    net.set_inputs(Tensor(shape=[2, None], dtype=ms.float32), Tensor(shape=[2, None], dtype=ms.float32))
    net(Tensor(np.ones((2, 2), np.float32)), Tensor(np.ones((2, 2), np.float32)))
