"""Code written for MindSpore 1.x imports `Validator` from the private `mindspore._checkparam`
(model-zoo copies of optimizers and wrappers, at module level or where it is used); 2.x removed
the class, so the import fails."""

import numpy as np

import mindspore as ms
from mindspore import nn


class Scaled(nn.Cell):
    def __init__(self, scale=2):
        super().__init__()
        from mindspore._checkparam import Validator  # expect: unknown-mindspore-api

        self.scale = Validator.check_positive_int(scale)

    def construct(self, x):
        return x * self.scale


if __name__ == "__main__":
    print(Scaled()(ms.Tensor(np.ones((2, 3), np.float32))))
