"""Tensor attributes and methods the release's Tensor does not have (PyTorch names, typos)."""

from mindspore import nn


class CallsATorchMethod(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.contiguous_format()  # expect: unknown-mindspore-api


class ReadsAMissingAttribute(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = x * 2
        return y * y.grad_fn  # expect: unknown-mindspore-api


class ReadsAMissingAttributeByName(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * getattr(x, "scale_factor")  # expect: unknown-mindspore-api
