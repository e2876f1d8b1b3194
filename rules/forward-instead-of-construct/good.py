"""`construct` defined or inherited, and `forward` where MindSpore does not look for one."""

from mindspore import nn


class ConstructCallsForward(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward(self, x):
        return self.dense(x)

    def construct(self, x):
        return self.forward(x)


class Residual(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return x + self.forward(x)


class InheritsConstruct(Residual):  # mslint: inputs=float32[2,4]
    def forward(self, x):
        return self.dense(x)


class DenseWithForward(nn.Dense):  # mslint: inputs=float32[2,4]
    """nn.Dense has its own `construct`."""

    def __init__(self):
        super().__init__(4, 4)

    def forward(self, x):
        return self.construct(x)


class Scorer:
    """Not a Cell: `forward` is only a method name."""

    def forward(self, values):
        return sum(values)


class ConstructAlias(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward(self, x):
        return self.dense(x)

    construct = forward


class BaseDetector(nn.Cell):
    """An abstract base, as detection zoos write one: never built itself, its `forward` dispatches
    to a method only its subclasses define, and the subclass MindSpore compiles has `construct`."""

    def forward(self, x):
        return self.forward_train(x)


class SingleStageDetector(BaseDetector):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)

    def forward_train(self, x):
        return self.dense(x)

    def construct(self, x):
        return self.forward(x)
