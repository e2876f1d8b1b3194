"""APIs of older MindSpore releases that 2.10 no longer has: the compile fails on them."""

from mindspore import nn, ops


class OldResizePrimitive(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return ops.ResizeBilinear((8, 8))(x)  # expect: unknown-mindspore-api


class OldPadKeyword(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return ops.pad(x, paddings=((0, 0), (0, 0), (1, 1), (1, 1)))  # expect: unknown-mindspore-api


class OldSplitKeyword(nn.Cell):  # mslint: inputs=float32[4,6]
    def construct(self, x):
        first, _ = ops.split(x, axis=1, output_num=2)  # expect: unknown-mindspore-api
        return first
