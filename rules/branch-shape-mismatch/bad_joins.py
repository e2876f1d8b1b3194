"""A tensor in one branch and a Python number in the other, wherever the tensor `if` is: in a
helper function, a `@jit` function called from construct, or in a loop."""

import mindspore as ms
from mindspore import nn


def scaled(x):
    if x.sum() > 0:  # expect: branch-shape-mismatch
        y = x
    else:
        y = 1.0
    return y


@ms.jit
def jit_scaled(x):  # mslint: inputs=float32[2,3]
    if x.sum() > 0:  # expect: branch-shape-mismatch
        y = x
    else:
        y = 1.0
    return y


class TensorOrNumberInAHelper(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return scaled(x) * 2


class TensorOrNumberInAJitFunction(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return jit_scaled(x) * 2


class TensorOrNumberInALoop(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        out = x
        for _ in range(2):
            if x.sum() > 0:  # expect: branch-shape-mismatch
                y = x
            else:
                y = 1.0
            out = out + y
        return out
