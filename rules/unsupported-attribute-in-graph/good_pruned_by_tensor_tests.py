"""Reads in branches that `isinstance(value, Tensor)` rules out: MindSpore folds the test where
the value is a `Parameter` or a `Tensor` that `__init__` sets, a tensor input, or a Python number
the call gives, and never evaluates the branch it skips (2.10, STRICT and LAX compile), so the
reads of attributes `Net` never sets there are never compiled."""

import numpy as np
from mindspore import Parameter, Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones((4,), np.float32)), name="w")
        self.scale = Tensor(np.ones((4,), np.float32))

    def construct(self, x, n):
        y = x * self.w
        if not isinstance(self.w, Tensor):
            y = self.cast_weight(y)
        y = y * self.scale if isinstance(self.scale, Tensor) else self.to_tensor(y)
        if not isinstance(x, Tensor):
            y = self.from_numpy(y)
        if isinstance(n, Tensor):
            y = self.from_scalar(y)
        return y * n


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)), 2)
