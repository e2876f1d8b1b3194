"""Deprecated MindSpore functions whose body logs the deprecation through mindspore.log."""

import mindspore as ms
from mindspore import nn, ops


class ShrinksTheOldWay(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return ops.soft_shrink(x)  # expect: forbidden-api-in-graph


class TakesTheDeterminant(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return ops.matrix_determinant(x)  # expect: forbidden-api-in-graph


class ConvertsAPythonType(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return x.astype(ms.pytype_to_dtype(float))  # expect: forbidden-api-in-graph
