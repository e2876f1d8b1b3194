"""The branch a folded membership, chained comparison or `len` test takes: the compiler keeps it,
and compiling the read of an attribute no instance sets fails."""

from mindspore import nn


class Norm(nn.Cell):
    def __init__(self, norm="bn"):
        super().__init__()
        self.norm = norm
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if self.norm in ("ln", "gn"):
            x = self.layer_norm(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


class Encoder(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.norm = Norm(norm="gn")

    def construct(self, x):
        return self.norm(x)


class Downsample(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.strides = (2, 2)
        self.rate = 0.5
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if len(self.strides) > 1:
            x = self.downsample(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)


class Dropout(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.rate = 0.5
        self.proj = nn.Dense(4, 4)

    def construct(self, x):
        if 0.0 < self.rate < 1.0:
            x = self.dropout(x)  # expect: unsupported-attribute-in-graph
        return self.proj(x)
