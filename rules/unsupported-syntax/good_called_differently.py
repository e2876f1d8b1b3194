"""One Cell class called with different inputs: MindSpore compiles a graph for the Python values and
tensor shapes each call gives, and folds a test on its constants, so a branch that no call takes is
compiled for none (see bad_called_differently.py, where one call takes it). The forms real code
uses: two sub-Cells of one class called with their own method, and instances made by a factory,
each called on a tensor built right before the call, of one element for each instance of Clamp."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Attention(nn.Cell):
    """Scores by the method its caller chooses with a string."""

    def construct(self, y, method="SOFT"):
        if method == "HARD":
            return max(y, ops.ones_like(y))
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
            return max(y, ops.ones_like(y))
        if method == "MEAN":
            return y.mean()
        return y - 1


class Clamp(nn.Cell):
    """Clamps from below with Python's max: a comparison of whole tensors, which hold one element
    or several as each call gives them."""

    def construct(self, y):
        return max(y, ops.ones_like(y))


class Repeat(nn.Cell):
    """Repeats as many times as the first of its extra arguments says: a Python number there is a
    graph constant, as a named argument's is."""

    def construct(self, y, *times):
        for _ in range(times[0]):
            y = y + 1
        return y


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
    one = Clamp()
    x = Tensor(np.ones([1], np.int32))
    one(x)
    single = Clamp()
    x = Tensor(np.ones([1], np.float32))
    single(x)
    repeat = Repeat()
    x = Tensor(np.ones([2, 2], np.float32))
    repeat(x, 2)
