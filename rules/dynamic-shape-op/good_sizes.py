"""The same operators with constant or shape-derived sizes: static shapes."""

from mindspore import nn, ops


class TopKConstant(nn.Cell):  # mslint: inputs=float32[8]
    def __init__(self):
        super().__init__()
        self.k = 3

    def construct(self, x):
        return ops.topk(x, self.k)[0]


class GatherShapeCount(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        indices = ops.arange(0, x.shape[0] // 2)
        return ops.gather(x, indices, 0)


class SegmentsConstant(nn.Cell):  # mslint: inputs=float32[8], int32[8]
    def construct(self, x, ids):
        return ops.unsorted_segment_sum(x, ids, 4)


class CountFromShapePrimitive(nn.Cell):  # mslint: inputs=float32[8]
    def __init__(self):
        super().__init__()
        self.shape = ops.Shape()

    def construct(self, x):
        (length,) = self.shape(x)
        return ops.gather(x, ops.arange(0, length, 2), 0)


class Flatten(nn.Cell):
    def construct(self, x):
        rows, columns = x.shape
        return x.reshape(-1), (rows, columns)


class CountsFromASubCell(nn.Cell):  # mslint: inputs=float32[2,4]
    """The sub-Cell returns a tensor and the sizes of its input's shape: the sizes are constants."""

    def __init__(self):
        super().__init__()
        self.flatten = Flatten()

    def construct(self, x):
        flat, (rows, columns) = self.flatten(x)
        return ops.gather(flat, ops.arange(0, rows * columns, columns), 0)


class ShapesFromShapes(nn.Cell):  # mslint: inputs=float32[8]
    def construct(self, x):
        rows = int(x.shape[0])
        return x.reshape(rows // 2, -1) + ops.zeros((rows // 2, 2), x.dtype)
