"""Names 2.10 lacks, read through every alias of a MindSpore module and through the package
itself: the same AttributeError as `ops.ResizeBilinear`, in graph code at compile time, elsewhere
when the line runs."""

import mindspore as ms
import mindspore.ops.operations as ops_p
from mindspore import nn
from mindspore import ops as O
from mindspore.ops import composite as C
from mindspore.ops import functional as F
from mindspore.ops import operations as P


class ResizeThroughOperations(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return P.ResizeBilinear((8, 8))(x)  # expect: unknown-mindspore-api


class SumThroughOperations(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.sum = P.Sum()  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.sum(x)


class NormThroughOperations(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return P.norm(x)  # expect: unknown-mindspore-api


class UpsampleThroughModuleImport(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return ops_p.Upsample(scale_factor=2)(x)  # expect: unknown-mindspore-api


class ReduceThroughFunctional(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return F.ReduceSum()(x, 1)  # expect: unknown-mindspore-api


class SampleThroughComposite(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return C.random_categorical(x, 2)  # expect: unknown-mindspore-api


class ResizeThroughRenamedOps(nn.Cell):  # mslint: inputs=float32[1,3,4,4]
    def construct(self, x):
        return O.ResizeBilinear((8, 8))(x)  # expect: unknown-mindspore-api


class MeanOfThePackage(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return ms.mean(x, 1)  # expect: unknown-mindspore-api


class ConcatOfThePackageInInit(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.offset = ms.concat((ms.Tensor([1.0]), ms.Tensor([2.0, 3.0])))  # expect: unknown-mindspore-api

    def construct(self, x):
        return x + self.offset
