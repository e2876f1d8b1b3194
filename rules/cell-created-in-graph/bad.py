"""Cells with Parameters built in construct: compiled silently, their Parameters never trained."""

import numpy as np

import mindspore as ms
from mindspore import Parameter, Tensor, mint, nn


class HeadInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        head = nn.Dense(4, 3)  # expect: cell-created-in-graph
        return head(x)


class NormCalledInline(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return nn.LayerNorm((4,))(x)  # expect: cell-created-in-graph


class MintLinearInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return mint.nn.Linear(4, 2)(x)  # expect: cell-created-in-graph


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gamma = Parameter(Tensor(np.ones(4), ms.float32), name="gamma")

    def construct(self, x):
        return x * self.gamma


class UserCellInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return Scale()(x)  # expect: cell-created-in-graph
