"""State kept the graph way, Python state that is only read, and randomness drawn by MindSpore."""

import random

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, nn, ops


class ParameterCounter(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(0, ms.int32), name="count", requires_grad=False)
        self.scale = 2.0

    def construct(self, x):
        ops.assign_add(self.count, Tensor(1, ms.int32))
        return x * self.scale


class LocalListConsumed(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        parts = []
        for i in range(2):
            parts.append(x * i)
        return ops.concat(parts)


class RandomOperators(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        noise = ops.rand_like(x)
        keep = ops.uniform((2, 4), Tensor(0.0), Tensor(1.0)) > 0.5
        return ops.select(keep, x + noise, x)


class DrawsOnceInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.jitter = random.uniform(0.9, 1.1)  # host code: one value for the Cell's life, on purpose

    def random(self, x):
        return x * self.jitter

    def construct(self, x):
        return self.random(x)


class FixedMaskFromInit(nn.Cell):  # mslint: inputs=float32[2,4]
    """numpy's random numbers drawn in `__init__`: host code, one mask for the Cell's life."""

    def __init__(self):
        super().__init__()
        self.mask = Tensor(np.random.rand(2, 4) > 0.5)

    def construct(self, x):
        return ops.select(self.mask, x, x * 0)


def _state(shape, name):
    state = Parameter(Tensor(np.zeros(shape, np.float32)), name=name, requires_grad=False)
    return state


class ParameterFromAHelper(nn.Cell):  # mslint: inputs=float32[2,4]
    """The attribute holds a Parameter that a helper function creates: assigning it is supported."""

    def __init__(self):
        super().__init__()
        self.last = _state((2, 4), "last")

    def construct(self, x):
        self.last = x * 2
        return self.last + x


class _Registry:
    """One object for the whole program that creates and keeps named Parameters."""

    def __init__(self):
        self.parameters = {}

    def register(self, name, value):
        if isinstance(value, Tensor):
            parameter = Parameter(value, name=name, requires_grad=False)
        else:
            parameter = Parameter(Tensor(value, ms.float32), name=name, requires_grad=False)
        self.parameters[name] = parameter
        return parameter


registry = _Registry()


class ParameterFromARegistry(nn.Cell):  # mslint: inputs=float32[2,4]
    """The attribute holds a Parameter that a method of a module-level object creates."""

    def __init__(self):
        super().__init__()
        self.total = registry.register("total", 0.0)

    def construct(self, x):
        self.total = x.sum()
        return x * 2
