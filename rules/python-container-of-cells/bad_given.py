"""A plain list of Cells handed to `__init__` and kept as it is."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


class Chain(nn.Cell):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = blocks  # expect: python-container-of-cells

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


class Model(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.chain = Chain([Block(), Block()])

    def construct(self, x):
        return self.chain(x)
