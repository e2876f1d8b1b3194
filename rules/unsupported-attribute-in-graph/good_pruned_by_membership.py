"""Reads in branches the compiler never evaluates: its type inference folds `in` and `not in` of a
literal tuple, list or dict, chained comparisons and `len` of a constant tuple or list
(mslint/data/folds-*.json; 2.10, STRICT and LAX compile), on constants of `self`, the module,
a constructor's arguments and a sub-Cell's call."""

from mindspore import nn

KERNELS = (3,)


class Norm(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, norm="bn", rate=0.0):
        super().__init__()
        self.norm = norm
        self.rate = rate
        self.strides = (1,)
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if self.norm in ("ln", "gn"):
            x = self.layer_norm(x)
        if self.norm not in ("bn", "ln"):
            x = self.group_norm(x)
        if 0.0 < self.rate < 1.0:
            x = self.dropout(x)
        if len(self.strides) > 1:
            x = self.downsample(x)
        y = self.pool(x) if len(KERNELS) == 2 else x
        return self.proj(y)


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)

    def construct(self, x, mode, sizes):
        if mode in {"train": 1, "export": 2}:
            x = self.export_head(x)
        while len(sizes) > 2:
            x = self.resize(x)
        return self.proj(x)


class Model(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.norm = Norm("bn", rate=1.0)
        self.head = Head()

    def construct(self, x):
        return self.head(self.norm(x), "eval", (2, 2))
