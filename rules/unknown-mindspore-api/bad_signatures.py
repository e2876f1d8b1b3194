"""Calls that the 2.10 signatures refuse: too many positional arguments, a keyword-only one
passed by position, a required one missing, one given twice, a constant of a refused type."""

import mindspore as ms
from mindspore import nn, ops


class KeywordOnlyByPosition(nn.Cell):  # mslint: inputs=float32[3,1]
    def construct(self, x):
        return x + ops.full((3, 1), 2.0, ms.float32)  # expect: unknown-mindspore-api


class PyTorchOrderOfPositionalArguments(nn.Cell):  # mslint: inputs=float32[2,3,4]
    """PyTorch's `flatten(x, start_dim, end_dim)`: MindSpore's second parameter is `order`, and
    which keyword-only parameter the third value was meant for is not known: no fix."""

    def construct(self, x):
        return ops.flatten(x, 0, -1)  # expect: unknown-mindspore-api


class TooManyPositional(nn.Cell):  # mslint: inputs=float32[4,6]
    def construct(self, x):
        first, _ = ops.split(x, 3, 1, 2)  # expect: unknown-mindspore-api
        return first


class MissingArgument(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.dense(x)


class MissingArgumentInGraph(nn.Cell):  # mslint: inputs=float32[4,6]
    def construct(self, x):
        first, _ = ops.split(x)  # expect: unknown-mindspore-api
        return first


class GivenTwice(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4, in_channels=4)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.dense(x)


class IntForShape(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(8)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.norm(x)


class IntForBool(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4, has_bias=1)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.dense(x)


class FloatForInt(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4.0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.dense(x)


class IntForShapeInGraph(nn.Cell):  # mslint: inputs=float32[3]
    def construct(self, x):
        return x + ops.full(3, 2.0)  # expect: unknown-mindspore-api


class PyTorchKeywordName(nn.Cell):  # mslint: inputs=float32[2,4]
    """PyTorch's `dim=`: `ops.softmax` calls it `axis` (fixed by renaming it)."""

    def construct(self, x):
        return ops.softmax(x, dim=-1)  # expect: unknown-mindspore-api
