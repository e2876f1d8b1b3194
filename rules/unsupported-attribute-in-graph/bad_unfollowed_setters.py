"""Attributes set from outside the Cell by names the model cannot follow (`exec` of built text,
`setattr` on the Cells a walk yields): where the program sets them first the read compiles, so
a read of a name the project never writes is a warning. Built alone, as here, it fails at both
levels (2.10: AttributeError: ... object has no attribute 'step_size')."""

import numpy as np
from mindspore import Tensor, nn


class MetaDense(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x) * self.step_size  # expect: unsupported-attribute-in-graph


def allocate_step_sizes(net, names, value):
    for name in names:
        exec("net.{}.{} = {}".format(name, "step_size", value))


def configure(net, options):
    for _, cell in net.cells_and_names():
        for key, value in options.items():
            setattr(cell, key, value)


if __name__ == "__main__":
    net = MetaDense()
    net(Tensor(np.ones((2, 4), np.float32)))
