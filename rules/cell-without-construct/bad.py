"""Graph code that calls a Cell whose class has no `construct`."""

from mindspore import nn


class MisspeltBlock(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def contruct(self, x):
        return self.dense(x)


class Layers(nn.Cell):
    """Holds layers for another Cell to run, and has nothing to run itself."""

    def __init__(self):
        super().__init__()
        self.first = nn.Dense(4, 4)
        self.second = nn.Dense(4, 4)


class CallsAMisspeltBlock(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = MisspeltBlock()

    def construct(self, x):
        return self.block(x)  # expect: cell-without-construct


class CallsAHolderOfLayers(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = Layers()

    def construct(self, x):
        return self.layers(x) * 2  # expect: cell-without-construct


class CallsEachBlockOfAList(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([MisspeltBlock(), MisspeltBlock()])

    def construct(self, x):
        for block in self.blocks:
            x = block(x)  # expect: cell-without-construct
        return x
