"""`nn.LayerNorm(c)` with a number, PyTorch's habit: MindSpore 2.10 takes the normalized shape as
a tuple or a list, and building the layer raises TypeError. A constructor's argument may be
either (its default or its use as a number says it is one here), so it is a warning, fixed as
`(c,)`."""

from mindspore import nn


class Block(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, dim=8):
        super().__init__()
        self.norm = nn.LayerNorm(dim)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.norm(x)


class WideBlock(nn.Cell):  # mslint: inputs=float32[2,16]
    def __init__(self, dim=8):
        super().__init__()
        self.norm = nn.LayerNorm(dim * 2)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.norm(x)
