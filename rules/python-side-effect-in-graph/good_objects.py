"""A method of an object held by the Cell that only reads its attributes: it compiles in STRICT,
with the result PyNative gives."""

from mindspore import nn


class Scale:
    def __init__(self):
        self.n = 2

    def doubled(self):
        return self.n * 2


class ScaleRead(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.scale = Scale()

    def construct(self, x):
        return x * self.scale.doubled()
