"""A parameter that holds `nn.LayerNorm`, called as PyTorch's `norm_layer(dim)` with an int: as its
default, as a `functools.partial` of it, or as what the parent's own parameter passes. MindSpore
2.10 takes the normalized shape as a tuple or a list, and building the layer raises TypeError."""

from functools import partial

import numpy as np
from mindspore import Tensor, nn


class Mlp(nn.Cell):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(dim)  # expect: unknown-mindspore-api
        self.fc = nn.Dense(dim, dim)

    def construct(self, x):
        return self.fc(self.norm(x))


class Head(nn.Cell):
    def __init__(self, dim, num_classes=10, norm_layer=partial(nn.LayerNorm, epsilon=1e-6)):
        super().__init__()
        self.norm = norm_layer(dim)  # expect: unknown-mindspore-api
        self.fc = nn.Dense(dim, num_classes)

    def construct(self, x):
        return self.fc(self.norm(x))


class Block(nn.Cell):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer(dim, epsilon=1e-5)  # expect: unknown-mindspore-api

    def construct(self, x):
        return self.norm(x)


class ViT(nn.Cell):
    def __init__(self, width=192, norm_layer=partial(nn.LayerNorm, epsilon=1e-6)):
        super().__init__()
        self.block = Block(width, norm_layer=norm_layer)

    def construct(self, x):
        return self.block(x)


def vit_tiny(**kwargs):
    return ViT(192, **kwargs)


if __name__ == "__main__":
    x = Tensor(np.ones((2, 192), np.float32))
    Mlp(192)(x)
    Head(192)(x)
    vit_tiny()(x)
