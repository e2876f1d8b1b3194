"""What a helper returns is what the last binding before its `return` gives the name: a name
first bound to a numpy array and then to a tensor made from it is the tensor, and PyTorch's
`.cuda()` on it fails where the line runs."""

import numpy as np
import mindspore as ms
from mindspore import nn


def normalized_kernel(size):
    kernel = np.ones((size, size), np.float32)
    kernel = ms.Tensor(kernel)
    kernel = kernel / kernel.sum()
    return kernel


class Blur(nn.Cell):  # mslint: inputs=float32[1,1,3,3]
    def __init__(self):
        super().__init__()
        self.kernel = normalized_kernel(3).view(1, 1, 3, 3).cuda()  # expect: torch-api-in-cell

    def construct(self, x):
        return x * self.kernel
