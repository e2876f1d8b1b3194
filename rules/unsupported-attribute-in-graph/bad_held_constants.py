"""The branch a test on what an attribute of `self` holds takes (a sub-Cell's attribute, an item
of a dict or a tuple set in `__init__`): the compiler keeps it, and compiling the read of an
attribute never set fails."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self, dim, use_bn=True):
        super().__init__()
        self.use_bn = use_bn
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        return self.proj(x)


class WithBlock(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4)

    def construct(self, x):
        x = self.block(x)
        if self.block.use_bn:
            x = self.bn(x)  # expect: unsupported-attribute-in-graph
        return x


class WithConfig(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.cfg = {"act": "relu"}

    def construct(self, x):
        if self.cfg["act"] == "relu":
            x = self.mish(x)  # expect: unsupported-attribute-in-graph
        return x


class WithSizes(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.sizes = (2, 2)

    def construct(self, x):
        if self.sizes[0] > 1:
            x = self.upsample(x)  # expect: unsupported-attribute-in-graph
        return x
