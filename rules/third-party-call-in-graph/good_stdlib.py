"""Standard-library calls the compiler folds or turns into graph operations: all compile in STRICT."""

import functools
import logging
import math
import operator

from mindspore import nn, ops

logger = logging.getLogger(__name__)


class ConstantMath(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * math.sqrt(4.0) + math.ceil(x.shape[0] / 4)


class ShapeInFormattedMessage(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if x.shape[0] != 2:
            raise ValueError(f"expected 2 rows, got {x.shape}")
        return x * 2


class OperatorFunctionsOnTensors(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return operator.add(operator.mul(x, x), 1)


class PartialOverTensor(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        add_x = functools.partial(ops.add, x)
        return add_x(x)
