"""The 2.10 names, read through the same aliases."""

import mindspore as ms
import mindspore.ops.operations as ops_p
from mindspore import nn
from mindspore import ops as O
from mindspore.ops import composite as C
from mindspore.ops import functional as F
from mindspore.ops import operations as P


class ResizeThroughOperations(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return P.ResizeBilinearV2()(x, (8, 8))


class SumThroughOperations(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.sum = P.ReduceSum()

    def construct(self, x):
        return self.sum(x)


class NormThroughFunctional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return F.norm(x)


class ResizeThroughModuleImport(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return ops_p.ResizeNearestNeighbor((8, 8))(x)


class SampleThroughComposite(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return C.clip_by_value(x, 0.0, 1.0)


class ResizeThroughRenamedOps(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return O.interpolate(x, size=(8, 8), mode="bilinear")


class MeanOfOps(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ms.ops.mean(x, 1) * ms.Tensor(2.0, ms.float32)
