"""Objects that graph code only reads, built from constants, or marked @jit_class."""

from dataclasses import dataclass

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

    def scale(self, x):
        return x * self.value


@dataclass
class Config:
    scale: float = 2.0


class ObjectFromInit(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.box = Box(3)
        self.config = Config()

    def construct(self, x):
        return self.box.scale(x) * self.config.scale


class ObjectFromConstants(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        box = Box(2)
        return box.scale(x)


class JitClassFromConstants(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        box = JitBox(2)
        return box.scale(x)


class JitClassInInit(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.box = JitBox(3)

    def construct(self, x):
        return self.box.scale(x)
