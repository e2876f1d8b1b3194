"""Tuples joined by a tensor `if` whose items differ at one place: a cast in one item on one side
only, a Python number against a tensor. The compiler joins tuples item by item and fails on the
item ("Cannot join the return values of different branches"), STRICT and LAX alike."""

import mindspore as ms
import numpy as np
from mindspore import Tensor, nn, ops


class HalfItemOnOneSide(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            out = (x, ops.cast(x, ms.float16))
        else:
            out = (x, x)
        return out


class HalfItemInAConditionalExpression(nn.Cell):
    def construct(self, x):
        out = (x, x.astype(ms.float16)) if x.sum() > 0 else (x, x)  # expect: branch-shape-mismatch
        return out


class NumberAgainstTensorInANestedTuple(nn.Cell):
    def construct(self, x):
        if x.sum() > 0:  # expect: branch-shape-mismatch
            return x, (x, 1)
        return x, (x, x)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.ones((2, 3), np.float32))
    HalfItemOnOneSide()(x)
    HalfItemInAConditionalExpression()(x)
    NumberAgainstTensorInANestedTuple()(x)
