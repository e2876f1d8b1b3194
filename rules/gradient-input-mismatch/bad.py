"""Gradients given a sens that cannot stand for the network's output, or a grad_position past
its inputs: the network's `float32[2, 3]` output comes from the input the script gives and the
Dense layer."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


class NumberSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.sens = 1.0

    def construct(self, x):
        return self.grad(self.net)(x, self.sens)  # expect: gradient-input-mismatch


class IntegerNumberSens(nn.Cell):
    """The GradOperation built where it is called."""

    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ops.GradOperation(get_all=True, sens_param=True)(self.net)(x, 1)  # expect: gradient-input-mismatch


class HalfSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        return self.grad(self.net)(x, ops.ones((2, 3), ms.float16))  # expect: gradient-input-mismatch


class IntegerSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        out = self.net(x)
        return self.grad(self.net)(x, ops.ones_like(out, dtype=ms.int32))  # expect: gradient-input-mismatch


class TwoOutputs(nn.Cell):
    def construct(self, x):
        return x * 2, x * 3


class TupleSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        out = self.net(x)
        return self.grad(self.net)(x, (ops.ones_like(out), ops.ones_like(out)))  # expect: gradient-input-mismatch


class TensorSensForTwoOutputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = TwoOutputs()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        return self.grad(self.net)(x, ops.ones_like(x))  # expect: gradient-input-mismatch


class PositionPastTheInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ms.grad(self.net, grad_position=1)(x)  # expect: gradient-input-mismatch


class PositionsPastTheInputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ops.value_and_grad(self.net, (0, 1))(x)  # expect: gradient-input-mismatch


class NothingToDifferentiate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ms.value_and_grad(self.net, None)(x)  # expect: gradient-input-mismatch


class AuxOfOneOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ms.value_and_grad(self.net, 0, None, has_aux=True)(x)  # expect: gradient-input-mismatch


if __name__ == "__main__":
    data = Tensor(np.ones((2, 4), np.float32))
    NumberSens()(data)
    IntegerNumberSens()(data)
    HalfSens()(data)
    IntegerSens()(data)
    TupleSens()(data)
    TensorSensForTwoOutputs()(data)
    PositionPastTheInputs()(data)
    PositionsPastTheInputs()(data)
    NothingToDifferentiate()(data)
    AuxOfOneOutput()(data)
