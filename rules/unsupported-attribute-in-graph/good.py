"""Attributes graph code may read and assign."""

import mindspore as ms
from mindspore import nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        return x * self.w


class Base(nn.Cell):
    """Reads `self.factor`, which only its subclasses set."""

    def construct(self, x):
        return x * self.factor


class Doubles(Base):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.factor = 2.0


class ReadsWhatItHas(nn.Cell):  # mslint: inputs=float32[4]
    limit = 4.0

    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Scale()])
        self.state = ms.Parameter(ms.Tensor([0.0, 0.0, 0.0, 0.0], ms.float32), name="state", requires_grad=False)
        setattr(self, "offset", 1.0)

    def construct(self, x):
        grid = [[1.0, 2.0], [3.0, 4.0]]
        grid[0][1] = 5.0
        x = x * 1  # a copy: an item set on an input is written into the caller's tensor by PyNative only
        x[0] = grid[0][1]
        self.state = x * 2
        if self.training and hasattr(self, "temperature"):
            x = x / self.temperature
        x = x * getattr(self, "momentum", 1.0) * self.offset
        return self.blocks[0](x) * self.limit + self.blocks[0].w
