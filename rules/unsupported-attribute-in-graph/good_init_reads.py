"""What `__init__` reads it has set first, or asks for."""

from mindspore import nn


class Head(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, with_bias=True):
        super().__init__()
        self.with_bias = with_bias
        self.dense = nn.Dense(4, 4, has_bias=self.with_bias)
        self.scale = self.factor if hasattr(self, "factor") else 1.0

    def construct(self, x):
        if self.with_bias:
            return self.dense(x) * self.scale
        return x
