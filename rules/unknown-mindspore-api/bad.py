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


class OldRepeatKeyword(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x.repeat(2, axis=0)  # expect: unknown-mindspore-api


class OldProdKeyword(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x.prod(axis=1)  # expect: unknown-mindspore-api


class OldClipKeyword(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return (x * 2).clip(xmin=0.0)  # expect: unknown-mindspore-api


class OldMeanKeyword(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x.mean(axis=1, keepdims=True)  # expect: unknown-mindspore-api
