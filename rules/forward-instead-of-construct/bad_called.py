"""`forward` is also called by name: renaming it is an unsafe fix."""

from mindspore import nn


class Block(nn.Cell):  # expect: forward-instead-of-construct  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward(self, x):
        return self.dense(x)


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block()

    def construct(self, x):
        return self.block.forward(x) + x
