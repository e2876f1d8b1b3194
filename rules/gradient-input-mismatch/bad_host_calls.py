"""Gradients a training script calls from Python in GRAPH_MODE: each is compiled when it is
called, from the network's `float32[2, 3]` output and the inputs the script gives. (Each call is
kept from stopping the script, so that the next one runs.)"""

import contextlib

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


def train_step():
    """A plain function of the script: its own network, data and gradient."""
    network = Net()
    data = Tensor(np.ones((2, 4), np.float32))
    gradient = ops.GradOperation(get_all=True, sens_param=True)
    with contextlib.suppress(TypeError):
        gradient(network)(data, 1)  # expect: gradient-input-mismatch


net = Net()
x = Tensor(np.ones((2, 4), np.float32))
grad = ops.GradOperation(get_all=True, sens_param=True)
with contextlib.suppress(TypeError):
    grad(net)(x, 1.0)  # expect: gradient-input-mismatch
with contextlib.suppress(TypeError):
    grad(net)(x, ops.ones((2, 3), ms.float16))  # expect: gradient-input-mismatch
with contextlib.suppress(TypeError):
    grad(net)(x, (ops.ones((2, 3), ms.float32),))  # expect: gradient-input-mismatch
with contextlib.suppress(IndexError):
    ms.grad(net, grad_position=1)(x)  # expect: gradient-input-mismatch
with contextlib.suppress(RuntimeError):
    ms.value_and_grad(net, 0, None, has_aux=True)(x)  # expect: gradient-input-mismatch
# The gradient function made on a line of its own: it is compiled where it is called.
grad_fn = grad(net)
with contextlib.suppress(TypeError):
    grad_fn(x, 2.0)  # expect: gradient-input-mismatch
step = ms.value_and_grad(net, 0, None, has_aux=True)
with contextlib.suppress(RuntimeError):
    step(x)  # expect: gradient-input-mismatch
train_step()
