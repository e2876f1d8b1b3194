"""A `@jit` function called from Python with arguments it cannot bind, and calls that spread a
tuple of known length (`net(*inputs)`, `self.attention(*pair)`) whose items do not fill the
parameters: MindSpore 2.10 counts the arguments as Python binds them. (Each call is kept from
stopping the script, so that the next one runs.)"""

import contextlib

import numpy as np
from mindspore import Tensor, jit, nn


@jit
def add(x, y):
    return x + y


class Attention(nn.Cell):
    def construct(self, x):
        return x * 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.attention = Attention()

    def construct(self, x):
        pair = (x, x)
        return self.attention(*pair)  # expect: call-argument-mismatch


x = Tensor(np.ones((2,), np.float32))
inputs = (x, x)
with contextlib.suppress(TypeError):
    add(x)  # expect: call-argument-mismatch
with contextlib.suppress(TypeError):
    add(x, y=x, scale=2)  # expect: call-argument-mismatch
with contextlib.suppress(TypeError):
    Attention()(*inputs)  # expect: call-argument-mismatch
with contextlib.suppress(TypeError):
    Net()(x)
