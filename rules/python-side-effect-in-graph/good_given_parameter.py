"""A Cell's attribute set from its constructor's argument, which every call that builds the Cell
passes a `Parameter` (here one its builder, a plain object, keeps): assigning it in graph code
assigns the Parameter, whose new value the next call sees (measured on 2.10: 1.0, then 1.75 after
two calls, in GRAPH STRICT and LAX)."""

import mindspore as ms
from mindspore import Parameter, Tensor, nn
from mindspore.ops import operations as P


class BoundStep(nn.Cell):
    def __init__(self, bound):
        super().__init__()
        self._bound = bound
        self._assign = P.Assign()

    def construct(self, x):
        next_bound = self._bound * 0.5 + x.mean()
        self._bound = self._assign(self._bound, next_bound)
        return x * self._bound


class Trainer:
    def __init__(self, bound):
        self._bound = Parameter(Tensor(bound, ms.float32), "bound")

    def build(self):
        return BoundStep(self._bound)


class Step(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        self.step = Trainer(1.0).build()

    def construct(self, x):
        return self.step(x)
