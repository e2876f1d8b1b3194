"""A convolution built in a branch of `__init__` on a constructor argument that an instance the
program builds takes (`norm="conv"`), with the `pad_mode` its padding needs."""

import mindspore as ms
import numpy as np
from mindspore import nn


class Stem(nn.Cell):
    def __init__(self, channels, norm="batch"):
        super().__init__()
        self.norm = norm
        self.conv = nn.Conv2d(3, channels, 3, pad_mode="pad", padding=1)
        if self.norm == "conv":
            self.extra = nn.Conv2d(channels, channels, 3, pad_mode="pad", padding=1)
        else:
            self.extra = nn.BatchNorm2d(channels)

    def construct(self, x):
        return self.extra(self.conv(x))


if __name__ == "__main__":
    Stem(8, norm="conv")(ms.Tensor(np.ones((1, 3, 8, 8), np.float32)))
