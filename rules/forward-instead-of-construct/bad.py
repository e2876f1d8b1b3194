"""Cells written the PyTorch way: `forward` and no `construct`."""

from mindspore import nn


class ForwardOnly(nn.Cell):  # expect: forward-instead-of-construct  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward(self, x):
        return self.dense(x)


class Backbone(nn.Cell):
    """A base class without `construct` of its own."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Dense(4, 4)


class Classifier(Backbone):  # expect: forward-instead-of-construct  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(4, 2)

    def forward(self, x):
        return self.head(self.stem(x))


class DetectorHead(nn.Cell):  # expect: forward-instead-of-construct  # mslint: inputs=float32[2,4]
    """A base that subclasses complete with `construct`, but the program also builds it itself."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward(self, x):
        return self.dense(x)


class BoxHead(DetectorHead):
    def construct(self, x):
        return self.dense(x) * 2


def build_heads():
    return DetectorHead(), BoxHead()
