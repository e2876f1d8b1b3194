"""numpy and math that the compiler folds, or that never runs as graph code."""

import math

import numpy as np

import mindspore as ms
import mindspore.numpy as mnp
from mindspore import Tensor, nn, ops

POSITIONS = np.arange(8, dtype=np.float32)  # module level: plain Python


class NumpyInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.scale = Tensor(np.full((2, 4), 0.5), ms.float32)
        self.bias = Tensor(POSITIONS[:4], ms.float32)

    def construct(self, x):
        return x * self.scale + self.bias


class ConstantNumpyInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        ones = Tensor(np.ones((2, 4)), ms.float32)
        return x + ones


class MathOnShapes(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        half = math.ceil(x.shape[0] / 2)
        return x[:half]


class MindSporeNumpy(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return mnp.maximum(x, 0) + ops.maximum(x, 0)


class LocalNamedNp(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        np = x.abs()  # a local variable called np is not numpy
        return np.sum(axis=0)


def preprocess(batch):
    """Data-pipeline helper: numpy is right here, and no graph code calls it."""
    return np.maximum(batch, 0).astype(np.float32)


def scale_for(width):
    return math.sqrt(width)


class HelperWithConstants(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * scale_for(x.shape[-1])


class PositionTable(nn.Cell):
    def construct(self, batch, height, width):
        return Tensor(np.zeros((batch, height, width)), ms.float32)


class SubCellGivenShapes(nn.Cell):  # mslint: inputs=float32[2,3,4]
    def __init__(self):
        super().__init__()
        self.positions = PositionTable()

    def construct(self, x):
        batch, height, width = x.shape
        return x + self.positions(batch, height, width)


class NestedFunctionDefaults(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        def scale(values, base=16, limit=128):
            return values / math.log(limit / base)

        return scale(x) + Tensor(np.arange(x.shape[-1]), ms.float32)


class PatchEmbedding(nn.Cell):
    def construct(self, x):
        batch, channels, height, width = x.shape
        return ops.reshape(x, (batch, channels, height * width)), (height, width)


class PositionsForEmbeddedPatches(nn.Cell):  # mslint: inputs=float32[2,3,4,5]
    """The sub-Cell returns a tensor and the sizes of its input's shape: the sizes are constants (XCiT)."""

    def __init__(self):
        super().__init__()
        self.patch_embed = PatchEmbedding()
        self.positions = PositionTable()

    def features(self, x):
        batch = x.shape[0]
        x, (height, width) = self.patch_embed(x)
        return x.sum() + self.positions(batch, height, width).sum()

    def construct(self, x):
        return self.features(x)


class ArangeOverAHelpersShape(nn.Cell):  # mslint: inputs=int32[2,6]
    def input_shape(self, ids):
        return ids.shape  # a tensor goes in, its static shape comes out (LayoutXLM)

    def construct(self, ids):
        shape = list(self.input_shape(ids))
        return ids + Tensor(np.arange(shape[1]), ms.int32)
