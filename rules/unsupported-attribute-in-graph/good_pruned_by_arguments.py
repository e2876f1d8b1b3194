"""Reads in a branch the compiler never reads for the calls the program makes: every call of
`Block` gives its `gate` None, and the compiler specialises the graph on a None argument and
folds `gate is not None` (2.10, STRICT and LAX compile)."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Dense(dim, dim)

    def construct(self, x, gate=None):
        if gate is not None:
            x = x * self.gate_proj(gate)
        return self.proj(x)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4)

    def construct(self, x):
        return self.block(x, None)
