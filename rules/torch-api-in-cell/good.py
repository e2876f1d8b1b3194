"""The MindSpore spellings, and the PyTorch-named methods MindSpore tensors do have."""

import mindspore as ms
from mindspore import nn, ops


class Flattens(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.view(x.shape[0], -1) * x.size


class StopsGradient(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return ops.stop_gradient(x).permute(1, 0).contiguous()


class CastsWithTo(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x.to(ms.float16)


class ChecksShapeWithMessage(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.shape != (2, 4):
            raise ValueError(f"expected (2, 4), got {x.size()}")
        return x * 2
