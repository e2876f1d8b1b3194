"""What a helper returns is what the last binding before its `return` gives the name: a name
first bound to a tensor and then to a buffer of the program's own is the buffer, whose
`detach()` is its own method, not PyTorch's."""

import mindspore as ms
from mindspore import nn, ops


class Pinned:
    """A host copy of a tensor, with a `detach()` of its own that hands the array out."""

    def __init__(self, tensor):
        self.array = tensor.asnumpy()

    def detach(self):
        return self.array


def pinned_ones(size):
    buffer = ops.ones((size,), ms.float32)
    buffer = Pinned(buffer)
    return buffer


class Scaled(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.scale = ms.Tensor(pinned_ones(4).detach())

    def construct(self, x):
        return x * self.scale
