"""Reads an attribute that only a MindSpore API sets: `add_flags_recursive(use_cache=True)` puts
`use_cache` in the `__dict__` of the Cell and of every Cell under it (as `add_flags` does on one
Cell), so `Block` has it when its graph is compiled (2.10, STRICT and LAX compile)."""

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Dense(dim, dim)

    def construct(self, x):
        if self.use_cache:
            x = x * 2
        return self.proj(x)


class Net(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.block = Block(4)
        self.block.add_flags_recursive(use_cache=True)

    def construct(self, x):
        return self.block(x)


if __name__ == "__main__":
    Net()(Tensor(np.ones((2, 4), np.float32)))
