"""Plain lists of Parameters that are no weights left out of training: an optimizer's own state
(a copy of the starting point, per-parameter accumulators, as DoWG keeps them), and a list whose
Parameters a ``ParameterTuple`` of it registers."""

import numpy as np

import mindspore as ms
from mindspore import Parameter, ParameterTuple, Tensor, nn, ops


class DistanceOptimizer(nn.Optimizer):
    def __init__(self, params, learning_rate=0.1):
        super().__init__(learning_rate, params)
        self.start = [Parameter(p.clone(), name=f"start_{i}") for i, p in enumerate(self.parameters)]
        self.sums = [Parameter(ops.zeros(p.shape, ms.float32), name=f"sum_{i}") for i, p in enumerate(self.parameters)]
        self.assign = ops.Assign()

    def construct(self, gradients):
        lr = self.get_lr()
        for p, g, start, total in zip(self.parameters, gradients, self.start, self.sums):
            self.assign(total, total + g * g)
            self.assign(p, p - lr * g / ops.sqrt(total + 1e-8) - lr * (p - start))
        return True


class TrainStep(nn.TrainOneStepCell):  # mslint: inputs=float32[2,4], float32[2,1]
    def __init__(self):
        net = nn.Dense(4, 1)
        super().__init__(nn.WithLossCell(net, nn.MSELoss()), DistanceOptimizer(net.trainable_params()))


class TensorProducts(nn.Cell):  # mslint: inputs=float32[1,4]
    def __init__(self, size=4):
        super().__init__()
        self.param_list = [Parameter(Tensor(np.ones((size, size)), ms.float32), name=f"param_{i}") for i in range(2)]
        self.V = ParameterTuple(self.param_list)

    def construct(self, x):
        for v in self.V:
            x = ops.matmul(x, v)
        return x


if __name__ == "__main__":
    step = TrainStep()
    for _ in range(2):
        step(Tensor(np.ones((2, 4), np.float32)), Tensor(np.ones((2, 1), np.float32)))
    print(TensorProducts()(Tensor(np.ones((1, 4), np.float32))))
