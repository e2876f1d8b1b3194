"""The branch the one instance takes: `Encoder` builds its `Block` with `attention=True`, so the
compiler keeps the `if` branch of that instance and compiling the read of `attn` fails."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, attention=False):
        super(Block, self).__init__()
        self.attention = attention
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4, attention=True)

    def construct(self, x):
        return self.block(x)
