"""Layers built in __init__, and Cells without Parameters or Primitives built in construct."""

from mindspore import nn, ops


class HeadInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 3)

    def construct(self, x):
        return self.head(x)


class ParameterFreeCellsInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        y = nn.ReLU()(x)
        y = nn.Softmax(axis=-1)(y)
        return nn.Flatten()(y)


class PrimitivesInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        total = ops.ReduceSum(keep_dims=True)(x, 1)
        return ops.Concat(axis=1)((x, total))


class Gate(nn.Cell):
    def __init__(self):
        super().__init__()
        self.act = nn.Sigmoid()

    def construct(self, x):
        return x * self.act(x)


class ParameterFreeUserCellInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return Gate()(x)


class LayerFactoryCalledInInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.body = self.make_layer(4)

    def make_layer(self, width):
        return nn.SequentialCell([nn.Dense(width, width), nn.ReLU()])

    def construct(self, x):
        return self.body(x)
