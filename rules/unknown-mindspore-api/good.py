"""The 2.10 spellings, and keyword arguments the 2.10 APIs do take."""

from mindspore import nn, ops


class ResizeWithInterpolate(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return ops.interpolate(x, size=(8, 8), mode="bilinear")


class PadWithTuple(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def __init__(self):
        super().__init__()
        self.pad = ops.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))

    def construct(self, x):
        return ops.pad(x, (1, 1, 1, 1), mode="constant") + self.pad(x)[:, :, 1:-1, 1:-1].sum()


class SplitInHalves(nn.Cell):  # mslint: inputs=float32[4,6]
    def construct(self, x):
        first, _ = ops.split(x, split_size_or_sections=3, axis=1)
        return first
