"""Cells and Parameters hidden from their Cell in plain Python containers."""

import numpy as np

import mindspore as ms
from mindspore import nn


class ListOfCells(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]  # expect: python-container-of-cells

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class AppendedList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        blocks = []
        for _ in range(depth):
            blocks.append(nn.Dense(4, 4))
        self.blocks = blocks  # expect: python-container-of-cells

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class DictOfCells(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.heads = {"a": nn.Dense(4, 2), "b": nn.Dense(4, 2)}  # expect: python-container-of-cells

    def construct(self, x):
        return self.heads["a"](x) + self.heads["b"](x)


class ListOfParameters(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.weights = [  # expect: python-container-of-cells
            ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="w0"),
            ms.Parameter(ms.Tensor(np.ones(4), ms.float32), name="w1"),
        ]

    def construct(self, x):
        for weight in self.weights:
            x = x * weight
        return x


class AttributeListGrown(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = []  # expect: python-container-of-cells
        for _ in range(2):
            self.blocks.append(nn.Dense(4, 4))

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class _LayersBase(nn.Cell):
    """No construct of its own: its subclasses compile the list."""

    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(4, 4), nn.Dense(4, 4)]  # expect: python-container-of-cells


class InheritedList(_LayersBase):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class _Holder(nn.Cell):
    """No construct: it keeps Cells that another Cell's graph code runs."""

    def __init__(self):
        super().__init__()
        self.blocks = [nn.Dense(4, 4), nn.ReLU()]  # expect: python-container-of-cells


class UsesHeldList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.holder = _Holder()

    def construct(self, x):
        for block in self.holder.blocks:
            x = block(x)
        return x


class DropoutsInAList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.stages = [nn.Dense(4, 4), nn.ReLU(), nn.Dropout(p=0.1)]  # expect: python-container-of-cells

    def construct(self, x):
        for stage in self.stages:
            x = stage(x)
        return self.dense(x)


class TupleOfCellsFromAGenerator(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = tuple(nn.Dense(4, 4) for _ in range(2))  # expect: python-container-of-cells

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class AlsoInACellListNotKept(nn.Cell):  # mslint: inputs=float32[2,4]
    """The CellList that also holds the Cells is a local the Cell never keeps: nothing registers them."""

    def __init__(self, parts=2):
        super().__init__()
        heads = []
        head_cells = nn.CellList()
        for _ in range(parts):
            head = nn.Dense(4, 4)
            heads.append(head)
            head_cells.append(head)
        self.heads = heads  # expect: python-container-of-cells

    def construct(self, x):
        return self.heads[0](x) + self.heads[1](x)


class StagesAppendedToALocalCellList(nn.Cell):  # mslint: inputs=float32[2,4]
    """The CellList given each stage is a local the Cell never keeps."""

    def __init__(self, depth=2):
        super().__init__()
        self.stages = []  # expect: python-container-of-cells
        layers = nn.CellList()
        for _ in range(depth):
            self.stages.append(nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)]))
            layers.append(self.stages[-1])

    def construct(self, x):
        for stage in self.stages:
            for layer in stage:
                x = layer(x)
        return x


class StagesExtendingALocalCellList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, depth=2):
        super().__init__()
        self.stages = [nn.CellList([nn.Dense(4, 4)]) for _ in range(depth)]  # expect: python-container-of-cells
        layers = nn.CellList()
        layers.extend(self.stages)

    def construct(self, x):
        for stage in self.stages:
            x = stage[0](x)
        return x


class StagesAlsoInAPlainList(nn.Cell):  # mslint: inputs=float32[2,4]
    """The local list that also holds each stage is never given to a Cell."""

    def __init__(self, depth=2):
        super().__init__()
        self.stages = []  # expect: python-container-of-cells
        layers = []
        for _ in range(depth):
            stage = nn.CellList([nn.Dense(4, 4), nn.Dense(4, 4)])
            self.stages.append(stage)
            layers.append(stage)
        self.count = len(layers)

    def construct(self, x):
        for stage in self.stages:
            for layer in stage:
                x = layer(x)
        return x
