"""A tensor or a number where the `if` is decided while compiling: one branch is compiled."""

from mindspore import nn


class NumberWhenNotTraining(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        if self.training:
            scale = x
        else:
            scale = 1.0
        return x * scale


class NumberForAMissingArgument(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x, scale=None):
        if scale is None:
            scale = 1.0
        return x * scale
