"""A sub-Cell built only where a flag says so (`Attention() if gated else None`), called with
arguments its `construct` cannot bind: where the instance is built with the flag set, the graph
compiler reaches the call and refuses it, whether the call is guarded by the flag, by a test of the
attribute itself, or written as a conditional expression."""

import numpy as np
from mindspore import Tensor, nn


class Attention(nn.Cell):
    def construct(self, x):
        return x * 2


class Gated(nn.Cell):
    def __init__(self, gated):
        super().__init__()
        self.gated = gated
        self.attention = Attention() if gated else None

    def construct(self, x):
        return self.attention(x, x) if self.gated else x  # expect: call-argument-mismatch


class Optional(nn.Cell):
    def __init__(self, use_attention):
        super().__init__()
        if use_attention:
            self.attention = Attention()
        else:
            self.attention = None

    def construct(self, x):
        if self.attention is not None:
            x = self.attention(x, x)  # expect: call-argument-mismatch
        return x


if __name__ == "__main__":
    inputs = Tensor(np.ones((2, 4), np.float32))
    Gated(True)(inputs)
    Optional(True)(inputs)
