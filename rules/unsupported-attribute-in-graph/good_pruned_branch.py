"""Reads in a branch the compiler never reads: the test is a constant of `self` (the class sets
it to one value only), which MindSpore folds while parsing (2.10, STRICT and LAX compile)."""

from mindspore import nn

USE_ATTENTION = False


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


class PrunedByAModuleConstantAndAComparison(nn.Cell):  # mslint: inputs=float32[2,4]
    """Inference folds a module constant, a comparison with a literal and `isinstance` too
    (mslint/data/folds-*.json), in `if`, conditional expressions and `while`."""

    def __init__(self):
        super().__init__()
        self.mode = 1
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if USE_ATTENTION:
            x = self.attn(x)
        if self.mode == 2:
            x = self.norm(x)
        y = self.pool(x) if isinstance(self.mode, str) else x
        while USE_ATTENTION:
            y = self.attn(y)
        return self.proj(y)
