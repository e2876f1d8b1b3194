"""The calls of bad_measured_arguments.py as MindSpore 2.10 takes them (measured): a scale factor
on a 4-D input needs `recompute_scale_factor=True` in 2.10, whatever the mode."""

from mindspore import nn, ops


class FloatScaleFactor(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    def construct(self, x):
        return ops.interpolate(x, scale_factor=2.0, mode="bilinear", recompute_scale_factor=True)


class SizeWithNearest(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    def construct(self, x):
        return ops.interpolate(x, size=(8, 8), mode="nearest")


class UpsampleWithAlignedCorners(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    def construct(self, x):
        return nn.Upsample(scale_factor=2.0, mode="bilinear", align_corners=True, recompute_scale_factor=True)(x)


class IntKernel(nn.Cell):  # mslint: inputs=float32[1,2,8,8]
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2)

    def construct(self, x):
        return self.pool(x)


class IntSections(nn.Cell):  # mslint: inputs=float32[6,6]
    def construct(self, x):
        first, _ = ops.split(x, 3)
        return first
