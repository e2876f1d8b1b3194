"""A parameter that holds `nn.LayerNorm` (or a `functools.partial` of it) called with the normalized
shape as a tuple; one tested for what it holds before the call (`isinstance` of a class is false);
one called only where the instance's flag says so; and one that holds a class of the project."""

from functools import partial

import numpy as np
from mindspore import Tensor, nn


class Block(nn.Cell):
    def __init__(self, dim, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm = norm_layer((dim,))

    def construct(self, x):
        return self.norm(x)


class Embed(nn.Cell):
    def __init__(self, dim, norm_layer=nn.BatchNorm1d):
        super().__init__()
        if isinstance(norm_layer, nn.LayerNorm):
            self.norm = norm_layer(dim)
        else:
            self.norm = nn.Identity()

    def construct(self, x):
        return self.norm(x)


class Attention(nn.Cell):
    def __init__(self, dim, qk_norm=False, norm_layer=nn.LayerNorm):
        super().__init__()
        self.q_norm = norm_layer(dim) if qk_norm else nn.Identity()

    def construct(self, x):
        return self.q_norm(x)


class ScaleNorm(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.scale = dim**-0.5

    def construct(self, x):
        return x * self.scale


class Mlp(nn.Cell):
    def __init__(self, dim, norm_layer=ScaleNorm):
        super().__init__()
        self.norm = norm_layer(dim)

    def construct(self, x):
        return self.norm(x)


class ViT(nn.Cell):
    def __init__(self, width=192, norm_layer=partial(nn.LayerNorm, epsilon=1e-6)):
        super().__init__()
        self.block = Block(width, norm_layer=norm_layer)
        self.embed = Embed(width)
        self.attention = Attention(width)
        self.mlp = Mlp(width)

    def construct(self, x):
        return self.mlp(self.attention(self.embed(self.block(x))))


if __name__ == "__main__":
    ViT()(Tensor(np.ones((2, 192), np.float32)))
