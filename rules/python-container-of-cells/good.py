"""Containers MindSpore registers, and plain lists that hold no Cells."""

import numpy as np

import mindspore as ms
from mindspore import nn


class WithCellList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
        self.sizes = [4, 4]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class WithSequentialCell(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        blocks = []
        for _ in range(depth):
            blocks.append(nn.Dense(4, 4))
            blocks.append(nn.ReLU())
        self.body = nn.SequentialCell(blocks)

    def construct(self, x):
        return self.body(x)


class WithCellDict(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.heads = nn.CellDict({"a": nn.Dense(4, 2), "b": nn.Dense(4, 2)})

    def construct(self, x):
        return self.heads["a"](x) + self.heads["b"](x)


class WithParameterTuple(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.weights = ms.ParameterTuple(
            [
                ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="w0"),
                ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="w1"),
            ]
        )

    def construct(self, x):
        for weight in self.weights:
            x = x * weight
        return x


class ListWrappedLater(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = [nn.Dense(4, 4) for _ in range(2)]
        self.blocks = nn.CellList(self.blocks)

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class CellsAlsoRegisteredByName(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, kernels=(1, 3)):
        super().__init__()
        self.branches = []
        for k in kernels:
            branch = nn.Dense(4, 4)
            self.__setattr__(f"branch{k}", branch)
            self.branches.append(branch)

    def construct(self, x):
        return x + self.branch1(x) + self.branch3(x)


class CellListFromAGenerator(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList(list(nn.Dense(4, 4) for _ in range(2)))

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class NotTrainedLatentCodes(nn.Cell):  # mslint: inputs=float32[2,4]
    """Per-batch codes that no training is meant to reach (`requires_grad=False`): the program
    updates them itself with `set_data`, which graph code sees in a plain list too."""

    def __init__(self, batches=2):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.codes = [
            ms.Parameter(ms.Tensor(np.zeros((2, 4)), ms.float32), requires_grad=False) for _ in range(batches)
        ]

    def construct(self, x):
        return self.dense(x) + self.codes[0]
