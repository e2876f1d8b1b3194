"""A name that two imports bind to different modules: which one a line reads depends on where it
runs (a script comparing PyTorch and MindSpore binds `nn` to torch.nn, then to mindspore.nn)."""

from mindspore import nn
from mindspore import ops as P

relu = P.relu  # mindspore.ops.relu: P is mindspore.ops here

from mindspore.ops import operations as P  # noqa: E402


class ReluThroughOperations(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.relu = P.ReLU()  # mindspore.ops.operations.ReLU: P is operations from here on

    def construct(self, x):
        return self.relu(x) + relu(x)
