"""A Cell that sets its attributes from text it runs (`exec`): what it has is not known, and
the read compiles (2.10, STRICT and LAX)."""

from mindspore import nn


class Scaled(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, names=("gain", "shift")):
        super().__init__()
        for name in names:
            exec("self.{} = {}".format(name, 1.0))

    def construct(self, x):
        return x * self.gain + self.shift
