"""One Cell class called with different inputs: MindSpore compiles a graph for the Python values and
tensor shapes each call gives, and folds a test on its constants, so a branch holds for the calls
that take it, and the finding names them (see good_called_differently.py, where no call takes it).
The forms real code uses: two sub-Cells of one class called with their own method, and instances
made by a factory, each called on a tensor built right before the call, which holds one element for
one instance of Clamp and several for the other."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Attention(nn.Cell):
    """Scores by the method its caller chooses with a string."""

    def construct(self, y, method="SOFT"):
        if method == "HARD":
            return max(y, ops.ones_like(y))  # expect: unsupported-syntax
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
            return max(y, ops.ones_like(y))  # expect: unsupported-syntax
        return y - 1


class Clamp(nn.Cell):
    """Clamps from below with Python's max: a comparison of whole tensors, which hold one element
    or several as each call gives them."""

    def construct(self, y):
        return max(y, ops.ones_like(y))  # expect: unsupported-syntax


class Repeat(nn.Cell):
    """Repeats as many times as the first of its extra arguments says: a tensor there is no
    Python int (`range` of it fails), as a named argument's is not."""

    def construct(self, y, *times):
        for _ in range(times[0]):  # expect: unsupported-syntax
            y = y + 1
        return y


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
    many = Clamp()
    x = Tensor(np.ones([2, 2], np.int32))
    many(x)
    one = Clamp()
    x = Tensor(np.ones([1], np.int32))
    one(x)
    repeat = Repeat()
    x = Tensor(np.ones([2, 2], np.float32))
    repeat(x, Tensor(2, ms.int32))
