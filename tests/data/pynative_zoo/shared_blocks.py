import numpy as np
from mindspore import nn


class SharedBlock(nn.Cell):
    """Imported by the PyNative demo and by the graph script: compiled there."""

    def construct(self, x):
        return np.tanh(x)  # expect: third-party-call-in-graph
