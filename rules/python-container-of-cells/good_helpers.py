"""Lists that helpers build, kept the graph way: registered, or of Cells without Parameters."""

from mindspore import nn


class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


def build_mlp(dim, depth):
    layers = []
    for _ in range(depth):
        layers.append(nn.Dense(dim, dim))
        layers.append(nn.ReLU())
    mlp = nn.SequentialCell(layers)
    return mlp


def mlp_and_layer_norm(dim, depth):
    layers = build_mlp(dim, depth)
    layers.append(nn.LayerNorm((dim,)))  # `SequentialCell.append`: the helper returns no list
    return layers


class FactoryMlpWithNorm(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, dim=4):
        super().__init__()
        self.mlp = mlp_and_layer_norm(dim, 2)

    def construct(self, x):
        return self.mlp(x)


class RegisteredStages(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.stages = nn.CellList([self._make_layer(2), self._make_layer(2)])

    def _make_layer(self, depth):
        return nn.SequentialCell([Block() for _ in range(depth)])

    def construct(self, x):
        for stage in self.stages:
            x = stage(x)
        return x


class ActivationsFromAHelper(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.activations = [self._activation(), self._activation()]

    def _activation(self):
        return nn.ReLU()

    def construct(self, x):
        for activation in self.activations:
            x = activation(x)
        return x
