"""Reads in a branch the compiler never reads: the test is a constant of `self` (the class sets
it to one value only), which MindSpore folds while parsing (2.10, STRICT and LAX compile)."""

from mindspore import nn


class NoAttention(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.attention = False
        self.use_past = False
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if self.attention:
            x = self.attn(x)
        if not self.use_past or self.cache > 0:
            x = x + 1
        y = self.norm(x) if self.attention else x
        return self.proj(y)
