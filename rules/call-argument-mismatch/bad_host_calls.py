"""A script that calls its Cells from Python with more or fewer positional arguments than their
`construct` takes: a Cell counts them before it compiles. (Each call is kept from stopping the
script, so that the next one runs.)"""

import contextlib

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

ms.set_context(mode=ms.GRAPH_MODE)


class Net(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * 2


class Scaled(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x, scale=2.0):
        return x * scale


def evaluate(data):
    """A plain function of the script: its own network."""
    model = Net()
    with contextlib.suppress(TypeError):
        model(data, data)  # expect: call-argument-mismatch


x = Tensor(np.ones((2, 3), np.float32))
net = Net()
with contextlib.suppress(TypeError):
    net(x, x)  # expect: call-argument-mismatch
with contextlib.suppress(TypeError):
    net()  # expect: call-argument-mismatch
with contextlib.suppress(TypeError):
    Scaled()(x, 2.0, 3.0)  # expect: call-argument-mismatch
evaluate(x)
