"""A read in a branch on `self.requires_grad`: `Cell.__init__` sets it to `False` and only
`set_grad` changes it; `Frozen` calls `set_grad(False)` on itself and nothing calls it on `Plain`, so
MindSpore folds both tests and never evaluates the reads of `grad_proj`, which neither Cell sets
(2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class Frozen(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)
        self.set_grad(False)

    def construct(self, x):
        if self.requires_grad:
            x = self.grad_proj(x)
        return self.proj(x)


class Plain(nn.Cell):
    def construct(self, x):
        return self.grad_proj(x) if self.requires_grad else x


if __name__ == "__main__":
    data = Tensor(np.ones((2, 4), np.float32))
    Frozen()(data)
    Plain()(data)
