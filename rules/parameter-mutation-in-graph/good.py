"""Parameters used the supported way: created and configured in __init__, updated with ops.assign."""

import mindspore as ms
from mindspore import Parameter, nn, ops


class AssignInGraph(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.w = Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w", requires_grad=False)

    def construct(self, x):
        ops.assign(self.w, x)
        return self.w * 2

    def reset(self):
        """Host code, called between steps: set_data is fine here."""
        self.w.set_data(ms.Tensor([0.0, 0.0, 0.0, 0.0], ms.float32))


class Buffer:
    def set_data(self, value):
        self.value = value


class StopsGradientOfAPlainTensor(nn.Cell):  # mslint: inputs=float32[2,4]
    """What `t.requires_grad = False` on a tensor means, the graph way."""

    def construct(self, x):
        mask = ops.stop_gradient(ops.ones((2, 4), ms.float32))
        return x * 2 + mask
