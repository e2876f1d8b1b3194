"""A width multiplier passed as a Python float is a graph constant: slicing with it is static."""

from mindspore import nn


class SlimmedByAFloat(nn.Cell):  # mslint: inputs=float32[2,8], 0.5
    def construct(self, x, width_mult):
        return x[:, : int(8 * width_mult)]
