"""A Cell's attribute set from its constructor's argument, which the call that builds the Cell
passes a plain Tensor: assigning it in graph code needs a `Parameter` (STRICT rejects it)."""

import mindspore as ms
from mindspore import Tensor, nn
from mindspore.ops import operations as P


class BoundStep(nn.Cell):
    def __init__(self, bound):
        super().__init__()
        self._bound = bound
        self._assign = P.Assign()

    def construct(self, x):
        next_bound = self._bound * 0.5 + x.mean()
        self._bound = self._assign(self._bound, next_bound)  # expect: python-side-effect-in-graph
        return x * self._bound


class Trainer:
    def __init__(self, bound):
        self._bound = Tensor(bound, ms.float32)

    def build(self):
        return BoundStep(self._bound)


class Step(nn.Cell):  # mslint: inputs=float32[2]
    def __init__(self):
        super().__init__()
        self.step = Trainer(1.0).build()

    def construct(self, x):
        return self.step(x)
