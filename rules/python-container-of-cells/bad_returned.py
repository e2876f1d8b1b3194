"""A plain list of Cells that a helper returns: the ViT port pattern (`make_layers(depth)`)."""

from mindspore import nn


def make_layers(depth, dim):
    layers = []
    for _ in range(depth):
        layers.append(nn.Dense(dim, dim))
    return layers


class ViT(nn.Cell):  # mslint: inputs=float32[2,8]
    def __init__(self, dim=8, depth=2):
        super().__init__()
        self.blocks = make_layers(depth, dim)  # expect: python-container-of-cells
        self.norm = nn.LayerNorm((dim,))

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return self.norm(x)


class Stages(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.stages = self._make_stages()  # expect: python-container-of-cells

    def _make_stages(self):
        return [nn.Dense(4, 4) for _ in range(2)]

    def construct(self, x):
        for stage in self.stages:
            x = stage(x)
        return x


def dense_list(dim, depth):
    return [nn.Dense(dim, dim) for _ in range(depth)]


def dense_list_and_norm(dim, depth):
    layers = dense_list(dim, depth)
    layers.append(nn.LayerNorm((dim,)))
    return layers


class GrownFactoryList(nn.Cell):  # mslint: inputs=float32[2,4]
    """The factory's helper returns a list: what it appends to is that list."""

    def __init__(self, dim=4):
        super().__init__()
        self.mlp = dense_list_and_norm(dim, 2)  # expect: python-container-of-cells

    def construct(self, x):
        for layer in self.mlp:
            x = layer(x)
        return x
