"""One Cell class built twice with different flags: MindSpore compiles each instance on the values
its constructor gives, and only the branches that instance takes. A finding in a branch holds for
the instances that take it and names them; a branch no instance takes is compiled for none (see
good_instances_differ.py)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Block(nn.Cell):
    """Built refining and built smoothing, never both: `refine and smooth` is false in each."""

    def __init__(self, dim, refine=False, smooth=False):
        super().__init__()
        self.dense = nn.Dense(dim, dim)
        self.refine = refine
        self.smooth = smooth

    def construct(self, x, steps):
        x = self.dense(x)
        if self.refine:
            for _ in range(steps):  # expect: unsupported-syntax
                x = self.dense(x)
        if self.refine and self.smooth:
            for _ in range(steps):
                x = x * 0.5
        return x


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.ones((2, 4), np.float32))
    refining = Block(4, refine=True)
    refining(x, Tensor(3, ms.int32))
    smoothing = Block(4, smooth=True)
    smoothing(x, Tensor(3, ms.int32))
