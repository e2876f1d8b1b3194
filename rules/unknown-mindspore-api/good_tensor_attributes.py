"""Attributes of the values graph code holds: tensors, Parameters, tuples and lists of tensors."""

import mindspore as ms
from mindspore import nn, ops


class ReadsTensorAttributes(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        outs = [x, x * 2]
        outs.append(x.T.T)
        pair = (x, x)
        rows = x.shape[0] + x.ndim + len(pair)
        return ops.stack(outs).sum(0) * rows * self.w.value()


class ReadsAttributesByName(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * getattr(x, "scale_factor", 1.0) + getattr(x, "T").T
