"""The checks of the private `mindspore._checkparam` are module functions in 2.x."""

import numpy as np

import mindspore as ms
from mindspore import _checkparam as validator
from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self, scale=2):
        super().__init__()
        self.scale = validator.check_positive_int(scale, "scale")

    def construct(self, x):
        return x * self.scale


if __name__ == "__main__":
    print(Scaled()(ms.Tensor(np.ones((2, 3), np.float32))))
