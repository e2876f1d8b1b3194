"""No `# mslint: inputs=` here: each Cell is built and its input made right before the call, as a
test script does. A Python scalar returned on one side of a tensor `if` and a tuple on the other
cannot be joined, nor can a list and a scalar or a tuple that a Cell returns (STRICT rejects
them, LAX runs the join in the Python interpreter)."""

import numpy as np
from mindspore import Tensor, nn


class IntOrTuple(nn.Cell):
    def construct(self, x):
        if x > 1:  # expect: branch-shape-mismatch
            return 1
        return (1, 2)


class StrOrTupleInAMethod(nn.Cell):
    def pick(self, x):
        if x > 1:  # expect: branch-shape-mismatch
            return "a"
        return (1, 2)

    def construct(self, x):
        return self.pick(x)


class FloatOrTupleInAConditional(nn.Cell):
    def construct(self, x):
        return 1.0 if x > 1 else (1, 2)  # expect: branch-shape-mismatch


class BoolOrTupleThroughAName(nn.Cell):
    def construct(self, x):
        if x > 1:  # expect: branch-shape-mismatch
            y = True
        else:
            y = (1, 2)
        return y


class IntOrList(nn.Cell):
    def construct(self, x):
        if x > 1:  # expect: branch-shape-mismatch
            return 1
        return [1, 2]


if __name__ == "__main__":
    x = Tensor(np.ones([1], np.int32))
    net = IntOrTuple()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = StrOrTupleInAMethod()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = FloatOrTupleInAConditional()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = BoolOrTupleThroughAName()
    out = net(x)
    x = Tensor(np.ones([1], np.int32))
    net = IntOrList()
    out = net(x)
