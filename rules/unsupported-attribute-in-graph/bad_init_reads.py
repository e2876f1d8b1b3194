"""An attribute never set, read in `__init__`: building the Cell fails there, before anything is
compiled (the same read in `construct` is never reached)."""

from mindspore import nn


class Head(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4, has_bias=self.bias_enabled)  # expect: unsupported-attribute-in-graph

    def construct(self, x):
        if self.bias_enabled:
            return self.dense(x)
        return x
