"""Plain lists of Cells that helpers build: the ResNet port pattern."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def make_stage(depth):
    return nn.SequentialCell([Block() for _ in range(depth)])


class StagesFromAMethod(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.stages = [self._make_layer(2), self._make_layer(2)]  # expect: python-container-of-cells

    def _make_layer(self, depth):
        layers = []
        for _ in range(depth):
            layers.append(Block())
        return nn.SequentialCell(layers)

    def construct(self, x):
        for stage in self.stages:
            x = stage(x)
        return x


class StagesFromAFunction(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.stages = [make_stage(1), make_stage(1)]  # expect: python-container-of-cells

    def construct(self, x):
        for stage in self.stages:
            x = stage(x)
        return x
