import mindspore as ms
from mindspore import nn, ops

from pkg.helpers import scale


class FallsBack(nn.Cell):  # mslint: inputs=float32[2,2]
    def construct(self, x):
        return scale(x)


class Fails(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Dense(2, 2), nn.Dense(2, 2)]

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Dynamic(nn.Cell):
    def construct(self, x):
        return ops.unique(x)[0]


class Clean(nn.Cell):
    def construct(self, x):
        return x * 2


class Outer(nn.Cell):  # mslint: inputs=float32[2,2]
    def __init__(self):
        super().__init__()
        self.inner = FallsBack()

    def construct(self, x):
        return self.inner(x) + 1


@ms.jit
def double(x):
    return x * 2
