"""The calls of bad_measured_arguments.py as MindSpore 2.10 takes them (measured): a scale factor
on a 4-D input needs `recompute_scale_factor=True` in 2.10, whatever the mode."""

from mindspore import mint, nn, ops


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


class IntDimOfTensorMethod(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        return x.sum(dim=1)


class IntTopK(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        values, _ = x.topk(2)
        return values


class IntSteps(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        return x + ops.linspace(0.0, 1.0, 6)


class MintIntSections(nn.Cell):  # mslint: inputs=float32[6,6]
    def construct(self, x):
        first, _ = mint.split(x, 3)
        return first


class IntSortAxis(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        values, _ = ops.sort(x, axis=1)
        return values


class RoundsToIntegers(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        return round(x) + x.round(0)
