"""`__init__` runs once per instance, as Python: a convolution built only in a branch on a
constructor argument that no instance the program builds takes is never built (every instance
here is built with `norm="batch"`)."""

import mindspore as ms
import numpy as np
from mindspore import nn


class Stem(nn.Cell):
    def __init__(self, channels, norm="batch"):
        super().__init__()
        self.norm = norm
        self.conv = nn.Conv2d(3, channels, 3, pad_mode="pad", padding=1)
        if self.norm == "conv":
            self.extra = nn.Conv2d(channels, channels, 3, padding=1)
        else:
            self.extra = nn.BatchNorm2d(channels)

    def construct(self, x):
        return self.extra(self.conv(x))


if __name__ == "__main__":
    Stem(8, norm="batch")(ms.Tensor(np.ones((1, 3, 8, 8), np.float32)))
