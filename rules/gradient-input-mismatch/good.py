"""Gradients seeded with a sens of the output's dtype: made from the output, or a tensor of its
dtype, a tuple for a tuple; a Python number where the GradOperation takes no sens; positions
of the inputs given."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn, ops


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 3)

    def construct(self, x):
        return self.dense(x)


class OnesLikeSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        out = self.net(x)
        return self.grad(self.net)(x, ops.ones_like(out))


class FloatSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        return self.grad(self.net)(x, ops.ones((2, 3), ms.float32))


class FilledSens(nn.Cell):
    """TrainOneStepCell's own way: the output's dtype and shape, filled with a Python number."""

    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)
        self.sens = 1.0

    def construct(self, x):
        out = self.net(x)
        sens = ops.fill(ops.dtype(out), ops.shape(out), self.sens)
        return self.grad(self.net)(x, sens)


class NoSens(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.grad = ops.GradOperation(get_all=True)
        self.scale = 1.0

    def construct(self, x):
        return self.grad(self.net)(x)[0] * self.scale


class TwoOutputs(nn.Cell):
    def construct(self, x):
        return x * 2, x * 3


class TupleSensForTwoOutputs(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = TwoOutputs()
        self.grad = ops.GradOperation(get_all=True, sens_param=True)

    def construct(self, x):
        return self.grad(self.net)(x, (ops.ones_like(x), ops.ones_like(x)))


class PositionOfTheInput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()

    def construct(self, x):
        return ops.value_and_grad(self.net, (0,))(x)


class WithRespectToTheWeights(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = Net()
        self.weights = self.net.trainable_params()

    def construct(self, x):
        return ms.value_and_grad(self.net, None, self.weights)(x)


class AuxBesideTheOutput(nn.Cell):
    def __init__(self):
        super().__init__()
        self.net = TwoOutputs()

    def construct(self, x):
        return ms.value_and_grad(self.net, 0, None, has_aux=True)(x)


if __name__ == "__main__":
    data = Tensor(np.ones((2, 4), np.float32))
    OnesLikeSens()(data)
    FloatSens()(data)
    FilledSens()(data)
    NoSens()(data)
    TupleSensForTwoOutputs()(data)
    PositionOfTheInput()(data)
    WithRespectToTheWeights()(data)
    AuxBesideTheOutput()(data)
