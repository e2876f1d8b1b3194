import numpy as np
from mindspore import nn


class EagerBlock(nn.Cell):
    def construct(self, x):
        return np.tanh(x)  # expect-without-pynative: third-party-call-in-graph
