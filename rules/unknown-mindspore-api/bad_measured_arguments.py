"""Calls whose argument values MindSpore 2.10 refuses, as measured by
scripts/generate_argument_table.py (mslint/data/arguments-2.10.0.json): each raises in PyNative
and in a graph, with the release's message."""

from mindspore import mint, nn, ops


class IntScaleFactor(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    """2.10 says "the 'scale_factor' must be float, but got 'int'", and a float scale factor on a
    4-D input needs `recompute_scale_factor=True`: fixed with both (the factor is a whole number)."""

    def construct(self, x):
        return ops.interpolate(x, scale_factor=2, mode="bilinear")  # expect: unknown-mindspore-api


class ScaleFactorWithNearest(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    """2.10 says "'scale_factor' option cannot currently be set with the mode = nearest and dim =
    4D"; it runs on 5-D inputs, so without the input's rank this is a warning."""

    def construct(self, x):
        return ops.interpolate(x, scale_factor=2.0, mode="nearest")  # expect: unknown-mindspore-api


class UpsampleWithAlignedCorners(nn.Cell):  # mslint: inputs=float32[1,2,4,4]
    """The layer passes its arguments to `ops.interpolate` when it is called: the compiler reports
    the call's line, so the example builds and calls it on one line."""

    def construct(self, x):
        return nn.Upsample(scale_factor=2.0, mode="bilinear", align_corners=True)(x)  # expect: unknown-mindspore-api


class FloatKernel(nn.Cell):  # mslint: inputs=float32[1,2,8,8]
    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(2.0)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.pool(x)


class FloatSections(nn.Cell):  # mslint: inputs=float32[6,6]
    def construct(self, x):
        first, _ = ops.split(x, 3.0)  # expect: unknown-mindspore-api
        return first


class FloatDimOfTensorMethod(nn.Cell):  # mslint: inputs=float32[2,6]
    """A Tensor method, on a tensor in graph code: "Failed calling sum with "sum(dim=float)""."""

    def construct(self, x):
        return x.sum(dim=1.0)  # expect: unknown-mindspore-api


class FloatTopK(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        values, _ = x.topk(2.0)  # expect: unknown-mindspore-api
        return values


class FloatSteps(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        return x + ops.linspace(0.0, 1.0, 6.0)  # expect: unknown-mindspore-api


class MintFloatSections(nn.Cell):  # mslint: inputs=float32[6,6]
    def construct(self, x):
        first, _ = mint.split(x, 3.0)  # expect: unknown-mindspore-api
        return first


class FloatSortAxis(nn.Cell):  # mslint: inputs=float32[2,6]
    def construct(self, x):
        values, _ = ops.sort(x, axis=1.0)  # expect: unknown-mindspore-api
        return values
