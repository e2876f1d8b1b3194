import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor

ms.set_context(mode=ms.GRAPH_MODE)


class Settings:
    def __init__(self):
        self.base = 10
        self.step = 3

    def advance(self, value):
        return value + self.step


class Runner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.settings = Settings()

    def construct(self):
        return self.settings.advance(self.settings.base)


print(Runner()())
