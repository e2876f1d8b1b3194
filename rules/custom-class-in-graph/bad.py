"""Plain Python objects built from tensors, or changed, in graph code."""

import mindspore as ms
from mindspore import nn


class Box:
    def __init__(self, value):
        self.value = value

    def scale(self, x):
        return x * self.value


@ms.jit_class
class JitBox:
    def __init__(self, value):
        self.value = value


class BuildFromTensor(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        box = Box(x)  # expect: custom-class-in-graph
        return box.value * 2


class ReturnObject(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return Box(x + 1)  # expect: custom-class-in-graph


class MutateObject(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.box = Box(3)

    def construct(self, x):
        self.box.value = 5  # expect: custom-class-in-graph
        return x * self.box.value


class JitClassFromTensor(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        box = JitBox(x)  # expect: custom-class-in-graph
        return box.value * 2


class JitClassAttributeChanged(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        box = JitBox(2)
        box.value = 3  # expect: custom-class-in-graph
        return x * box.value
