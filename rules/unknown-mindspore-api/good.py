"""The 2.10 spellings, and keyword arguments the 2.10 APIs do take."""

import inspect

import mindspore as ms
from mindspore import jit, nn, ops


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


class ResizesOnEveryRelease(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    """Version-portable code: each old API is used only where the release has it."""

    def __init__(self):
        super().__init__()
        if hasattr(ops, "ResizeBilinear"):
            self.resize = ops.ResizeBilinear((8, 8))
        else:
            self.resize = ops.ResizeBilinearV2()
        self.size_name = "sizes" if "sizes" in inspect.signature(ops.interpolate).parameters else "size"
        try:
            self.split = ops.Split(axis=1, output_num=2)
        except TypeError:
            self.split = None

    def construct(self, x):
        if self.size_name == "sizes":
            y = ops.interpolate(x, sizes=(8, 8), mode="bilinear")
        else:
            y = ops.interpolate(x, size=(8, 8), mode="bilinear")
        return y + self.resize(x, (8, 8))


IS_MS_VERSION_1 = ms.__version__.startswith("1.")


@jit
def upsample(x):  # mslint: inputs=float32[1,3,4,4]
    if IS_MS_VERSION_1:
        return ops.interpolate(x, sizes=(8, 8), mode="bilinear")
    return ops.interpolate(x, size=(8, 8), mode="bilinear")


class TensorMethodKeywords(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        product = x.prod(dim=1, keepdim=True)
        clipped = x.clip(min=0.0, max=1.0)
        return product, clipped, x.mean(axis=1, keep_dims=True), x.sum(axis=1, keepdims=True)
