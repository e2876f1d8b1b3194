"""PyTorch's arguments that MindSpore reads another way: each compiles and runs, and computes
something else than the PyTorch model (measured on 2.10: mslint/data/pytorch-differences.json)."""

from mindspore import nn, ops

DROPOUT = 0.1


class Block(nn.Cell):  # mslint: inputs=float32[2,8,4]
    def __init__(self, dropout=0.1):
        super().__init__()
        self.drop = nn.Dropout(0.1)  # expect: differs-from-pytorch
        self.attention_drop = nn.Dropout(dropout)  # expect: differs-from-pytorch
        self.output_drop = nn.Dropout(DROPOUT)  # expect: differs-from-pytorch
        self.norm = nn.BatchNorm1d(8, momentum=0.1)  # expect: differs-from-pytorch
        self.other_norm = nn.BatchNorm1d(8, 1e-5, 0.01)  # expect: differs-from-pytorch

    def construct(self, x):
        y = self.drop(self.attention_drop(self.output_drop(x)))
        z = self.other_norm(self.norm(x.reshape(-1, 8))).reshape(2, -1)
        return y, z, ops.std(z, 1)  # expect: differs-from-pytorch


class Statistics(nn.Cell):  # mslint: inputs=float32[2,8]
    def construct(self, x):
        return x.var(1)  # expect: differs-from-pytorch


class ConfiguredBlock(nn.Cell):  # mslint: inputs=float32[2,8]
    """A rate read from a config or passed in: `nn.Dropout`'s first parameter is `keep_prob`
    whatever the value is, so a PyTorch rate keeps that share of the elements."""

    def __init__(self, cfg=None, rate=None):
        super().__init__()
        cfg = cfg or {"dropout": 0.1}
        self.drop = nn.Dropout(cfg["dropout"])  # expect: differs-from-pytorch
        self.head_drop = nn.Dropout(rate or cfg["dropout"])  # expect: differs-from-pytorch

    def construct(self, x):
        return self.head_drop(self.drop(x))
