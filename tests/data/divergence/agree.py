"""Entries whose graph-mode result agrees with PyNative, or cannot be compared."""

from mindspore import nn, ops


class Clean(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.scale = 2.0

    def construct(self, x):
        y = self.dense(x)
        for _ in range(2):  # a builtin: the comparison restores the module's globals, never shadows it
            y = y * self.scale
        return y


class WithDropout(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)
        self.dropout = nn.Dropout(p=0.5)

    def construct(self, x):
        return self.dropout(self.dense(x))


class RandomOperators(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x + ops.rand_like(x)
