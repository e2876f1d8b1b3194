"""The branch the program's call takes: `Encoder` gives `Block` a tensor as `gate`, so the test
`gate is not None` holds and compiling the read of `gate_proj`, which `Block` never sets, fails."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Dense(dim, dim)

    def construct(self, x, gate=None):
        if gate is not None:
            x = x * self.gate_proj(gate)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4)

    def construct(self, x):
        return self.block(x, x)
