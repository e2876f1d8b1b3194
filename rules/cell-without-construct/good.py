"""Cells without a `construct` of their own that graph code uses correctly."""

from mindspore import nn


class Layers(nn.Cell):
    """Holds layers for another Cell to run: never called itself."""

    def __init__(self):
        super().__init__()
        self.first = nn.Dense(4, 4)
        self.second = nn.Dense(4, 4)


class RunsTheLayersItHolds(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.layers = Layers()

    def construct(self, x):
        return self.layers.second(self.layers.first(x))


class Base(nn.Cell):
    def construct(self, x):
        return self.scale(x)

    def scale(self, x):
        return x * 2


class InheritsConstruct(Base):
    def scale(self, x):
        return x * 3


class Aliased(nn.Cell):
    def run(self, x):
        return x + 1

    construct = run


class CallsInheritedAndAliased(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.inherits = InheritsConstruct()
        self.aliased = Aliased()

    def construct(self, x):
        return self.aliased(self.inherits(x))
