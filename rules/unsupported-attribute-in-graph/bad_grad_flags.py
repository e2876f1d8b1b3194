"""A read in a branch on `self.requires_grad` after `set_grad()` (here in `__init__`): the flag is
`True`, the branch is compiled, and the read of `grad_proj`, which `Net` never sets, fails."""

import numpy as np
from mindspore import Tensor, nn


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(4, 4)
        self.set_grad()

    def construct(self, x):
        if self.requires_grad:
            x = self.grad_proj(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


if __name__ == "__main__":
    net = Net()
    net(Tensor(np.ones((2, 4), np.float32)))
