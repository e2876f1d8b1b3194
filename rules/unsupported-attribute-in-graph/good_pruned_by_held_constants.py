"""Reads in branches the compiler never evaluates: its type inference folds a test on what an
attribute of `self` holds as on `self`'s own constants (mslint/data/folds-*.json; 2.10, STRICT
and LAX compile): an attribute of a sub-Cell built in `__init__`, an item of a dict or of a tuple
set there."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, use_bn=True, act="relu"):
        super().__init__()
        self.use_bn = use_bn
        self.act = act
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        return self.proj(x)


class Stage(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4, use_bn=False)
        self.cfg = {"act": "gelu", "drop": 0.0}
        self.sizes = (1, 2)

    def construct(self, x):
        x = self.block(x)
        if self.block.use_bn:
            x = self.bn(x)
        if self.block.act != "relu":
            x = self.gelu(x)
        if self.cfg["act"] == "relu":
            x = self.mish(x)
        y = self.dropout(x) if self.cfg["drop"] > 0 else x
        if self.sizes[0] > 1:
            y = self.upsample(y)
        return y
