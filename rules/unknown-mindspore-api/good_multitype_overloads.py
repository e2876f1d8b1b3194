"""A `MultitypeFuncGraph` overload that no call selects: the compiler parses only the overload the
arguments select, so a name 2.10 lacks in another one's body never fails (an optimizer copied from
MindSpore 1.x, whose every call passes fewer arguments than its sparse overload takes)."""

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.nn.optim.optimizer import Optimizer
from mindspore.ops import composite as C
from mindspore.ops import functional as F

_scale = C.MultitypeFuncGraph("scale")


@_scale.register("Tensor", "Tensor")
def _scale_dense(factor, x):
    return x * factor


@_scale.register("Function", "Tensor", "Tensor", "RowTensor")
def _scale_sparse_with(op, factor, previous, x):
    F.control_depend(previous, x)
    return op(x.values * factor)


class ScaledPair(nn.Cell):  # mslint: inputs=float32[2,3], float32[2,3]
    def __init__(self):
        super().__init__()
        self.hyper_map = C.HyperMap()
        self.factor = Tensor(2.0, ms.float32)

    def construct(self, a, b):
        return self.hyper_map(F.partial(_scale, self.factor), (a, b))


class ScaledOne(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.factor = Tensor(2.0, ms.float32)

    def construct(self, x):
        return _scale(self.factor, x)


_sgd = C.MultitypeFuncGraph("sgd")


@_sgd.register("Tensor", "Tensor", "Tensor")
def _sgd_dense(lr, gradient, param):
    return F.depend(True, F.assign(param, param - lr * gradient))


@_sgd.register("Function", "Tensor", "RowTensor", "Tensor")
def _sgd_sparse(opt, lr, gradient, param):
    F.control_depend(lr, param)
    return F.depend(True, opt(param, gradient.indices, gradient.values * lr))


class SGD(Optimizer):
    """An optimizer calls the overloads through the `hyper_map` that MindSpore's `Optimizer` sets."""

    def __init__(self, params):
        super().__init__(0.1, params)

    def construct(self, gradients):
        return self.hyper_map(F.partial(_sgd, self.get_lr()), gradients, self._parameters)


class Loss(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 1)

    def construct(self, x):
        return self.dense(x).sum()


class TrainStep(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        loss = Loss()
        self.step = nn.TrainOneStepCell(loss, SGD(loss.trainable_params()))

    def construct(self, x):
        return self.step(x)
