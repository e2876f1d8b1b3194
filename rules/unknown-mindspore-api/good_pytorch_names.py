"""MindSpore's own names for what PyTorch calls `dim`, `keepdim` and `nn.Sequential`."""

from mindspore import nn, ops


class Attention(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.softmax(x, axis=-1)


class Concatenated(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.cat((x, x * 2), axis=1)


class Pooled(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.mean(x, 1, keep_dims=True)


class Stacked(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.body = nn.SequentialCell(nn.Dense(4, 4), nn.ReLU())

    def construct(self, x):
        return self.body(x)
