"""Reads in the branch that `isinstance(value, Tensor)` takes: MindSpore folds the test where the
value is a `Parameter` that `__init__` sets, a tensor input, or a Python number the call gives,
and compiles the branch it takes, whose reads of attributes `Net` never sets fail."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class Weighted(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((4,), np.float32)), name="w")

    def construct(self, x):
        if isinstance(self.w, Tensor):
            return self.cast_weight(x)  # expect: unsupported-attribute-in-graph
        return x


class Inputs(nn.Cell):
    def construct(self, x, n):
        y = x * n
        if isinstance(x, Tensor):
            y = self.from_tensor(y)  # expect: unsupported-attribute-in-graph
        return y


class Numbers(nn.Cell):
    def construct(self, x, n):
        if not isinstance(n, Tensor):
            return self.from_scalar(x)  # expect: unsupported-attribute-in-graph
        return x


if __name__ == "__main__":
    data = Tensor(np.ones((2, 4), np.float32))
    Weighted()(data)
    Inputs()(data, 2)
    Numbers()(data, 2)
