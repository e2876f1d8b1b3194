"""Reads in a branch the compiler never reads, for every instance the program builds: `Block`
keeps its constructor's `attention`, and both instances (built by `Encoder`, one by spreading the
constant tuple `SIZES`) are given `False`. MindSpore compiles an instance, so the test is a constant it folds while parsing (2.10, STRICT
and LAX compile)."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, attention=True, use_past=True):
        super(Block, self).__init__()
        self.attention = attention
        self.use_past = use_past
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        if not self.use_past or self.cache > 0:
            x = x + 1
        return self.proj(x)


SIZES = (4, False, False)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4, attention=False, use_past=False)
        self.other = Block(*SIZES)

    def construct(self, x):
        return self.other(self.block(x))
