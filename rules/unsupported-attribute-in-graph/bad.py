"""Attributes the graph compiler rejects: assigned through an item, or never set."""

import mindspore as ms
from mindspore import nn


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")
        self.gain = 2.0

    def construct(self, x):
        return x * self.w * self.gain


class SetsAnItemsAttribute(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Scale(), Scale()])

    def construct(self, x):
        self.blocks[0].gain = 3.0  # expect: unsupported-attribute-in-graph
        return self.blocks[0](x)


class AddsToAnItemsParameter(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.blocks = nn.CellList([Scale()])

    def construct(self, x):
        self.blocks[0].w += x  # expect: unsupported-attribute-in-graph
        return x


class UnpacksIntoAnItem(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        items = [x, x]
        y, items[0].tag = x * 2, 1  # expect: unsupported-attribute-in-graph
        return y


class ReadsWhatItNeverSets(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.scale = 2.0

    def construct(self, x):
        return x * self.sclae  # expect: unsupported-attribute-in-graph


class ReadsWhatItsSubCellLacks(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.head = Scale()

    def construct(self, x):
        return self.head(x) * self.head.shift_table  # expect: unsupported-attribute-in-graph


class GetsAMissingName(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        return x * getattr(self, "temperature")  # expect: unsupported-attribute-in-graph


class ReadsInTheBranchItTakes(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.attention = True

    def construct(self, x):
        if self.attention:
            x = self.attn(x)  # expect: unsupported-attribute-in-graph
        return x
