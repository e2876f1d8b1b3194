import mindspore as ms
import numpy as np
from mindspore import nn


class CompiledNorm(nn.Cell):
    """In the PyNative tree, but ``@jit`` compiles its construct in PyNative mode too."""

    @ms.jit
    def construct(self, x):
        return np.tanh(x)  # expect: third-party-call-in-graph
