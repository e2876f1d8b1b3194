"""One Cell class called with different Python values: MindSpore compiles a graph for the constants
each call gives and folds a test on them, so a branch that no call takes is compiled for none
(see bad_called_differently.py, where one call takes it). The forms real code uses: two
sub-Cells of one class called with their own method, and instances made by a factory, each
called on a tensor built right before the call."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Attention(nn.Cell):
    """Scores by the method its caller chooses with a string."""

    def construct(self, y, method="SOFT"):
        if method == "HARD":
            return max(y, 1)
        if method == "MEAN":
            return y.mean()
        return y * 2


class Refiner(nn.Cell):
    """Two instances of one sub-Cell, neither called with the hard method."""

    def __init__(self):
        super().__init__()
        self.soft = Attention()
        self.mean = Attention()

    def construct(self, x):
        return self.soft(x) + self.mean(x, "MEAN")


class Pooling(nn.Cell):
    """Pools by the method its caller chooses with a string."""

    def construct(self, y, method):
        if method == "HARD":
            return max(y, 1)
        if method == "MEAN":
            return y.mean()
        return y - 1


def make_pooling():
    return Pooling()


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    refiner = Refiner()
    refiner(Tensor(np.ones([2, 2], np.float32)))
    mean = make_pooling()
    x = Tensor(np.ones([2, 2], np.float32))
    mean(x, "MEAN")
    soft = make_pooling()
    x = Tensor(np.ones([2, 2], np.int32))
    soft(x, "SOFT")
