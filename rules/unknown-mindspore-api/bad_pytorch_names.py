"""PyTorch's names where MindSpore 2.10 has its own: each is a TypeError or AttributeError, and
the fix (`axis`, `keep_dims`, `SequentialCell`) compiles."""

from mindspore import nn, ops


class Attention(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.softmax(x, dim=-1)  # expect: unknown-mindspore-api


class Concatenated(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.cat((x, x * 2), dim=1)  # expect: unknown-mindspore-api


class Pooled(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.mean(x, 1, keepdim=True)  # expect: unknown-mindspore-api


class Stacked(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Dense(4, 4), nn.ReLU())  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.body(x)
