"""One Cell class called with different Python values: MindSpore compiles a graph for the constants
each call gives and folds a test on them, so a branch holds for the calls that take it, and the
finding names them (see good_called_differently.py, where no call takes it). The forms real code
uses: two sub-Cells of one class called with their own method, and instances made by a factory,
each called on a tensor built right before the call."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn


class Attention(nn.Cell):
    """Scores by the method its caller chooses with a string."""

    def construct(self, y, method="SOFT"):
        if method == "HARD":
            return max(y, 1)  # expect: unsupported-syntax
        return y * 2


class Refiner(nn.Cell):
    """Two instances of one sub-Cell, the second called with the hard method."""

    def __init__(self):
        super().__init__()
        self.soft = Attention()
        self.hard = Attention()

    def construct(self, x):
        return self.soft(x) + self.hard(x, "HARD")


class Pooling(nn.Cell):
    """Pools by the method its caller chooses with a string."""

    def construct(self, y, method):
        if method == "HARD":
            return max(y, 1)  # expect: unsupported-syntax
        return y - 1


def make_pooling():
    return Pooling()


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    refiner = Refiner()
    refiner(Tensor(np.ones([2, 2], np.int32)))
    hard = make_pooling()
    x = Tensor(np.ones([2, 2], np.int32))
    hard(x, "HARD")
    soft = make_pooling()
    x = Tensor(np.ones([2, 2], np.int32))
    soft(x, "SOFT")
