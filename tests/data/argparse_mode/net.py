import numpy as np
from mindspore import nn


class Net(nn.Cell):
    def construct(self, x):
        return np.tanh(x)
