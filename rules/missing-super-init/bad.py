"""Cells whose __init__ never runs Cell.__init__."""

import numpy as np

import mindspore as ms
from mindspore import nn, ops


class SubCell(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        self.dense = nn.Dense(4, 4)  # expect: missing-super-init

    def construct(self, x):
        return self.dense(x)


class Operator(nn.Cell):  # mslint: inputs=float32[2,4]
    """The operator is kept in a table Cell.__init__ creates."""

    def __init__(self, alpha=0.1):
        """A docstring stays first."""
        self.alpha = alpha
        self.mul = ops.Mul()  # expect: missing-super-init

    def construct(self, x):
        return self.mul(x, self.alpha)


class WithParameter(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        self.scale = ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="scale")  # expect: missing-super-init

    def construct(self, x):
        return x * self.scale


class PlainValues(nn.Cell):  # expect: missing-super-init  # mslint: inputs=float32[2,4]
    def __init__(self, factor=2.0):
        self.factor = factor

    def construct(self, x):
        return x * self.factor


class Base(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Dense(width, width)

    def construct(self, x):
        return self.body(x)


class Child(Base):  # mslint: inputs=float32[2,4]
    def __init__(self):
        self.head = nn.Dense(4, 4)  # expect: missing-super-init

    def construct(self, x):
        return self.head(x)
