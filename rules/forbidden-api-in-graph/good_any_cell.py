"""Cell methods where they belong, and look-alike methods that are not the refused ones."""

import mindspore as ms
from mindspore import nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        return x * self.w


class CountsItself(nn.Cell):
    """A Cell that defines its own `trainable_params`: the project's method runs, not MindSpore's."""

    def trainable_params(self, recurse=True):
        return 2

    def construct(self, x):
        return x * 2


def total(table):
    """Given a dict by every caller: its `items` is the dict's."""
    return sum(v for _, v in table.items())


class CountsInInit(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.encoder = Scale()
        self.counter = CountsItself()
        self.count = len(self.encoder.trainable_params())
        self.encoder.set_train(False)
        self.scales = {"a": 1.0, "b": 2.0}

    def construct(self, x):
        for _, scale in self.scales.items():
            x = x * scale
        return self.encoder(x) * self.count * self.counter.trainable_params() * total(self.scales)


class LoopsOverCells(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([Scale(), Scale()])

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
