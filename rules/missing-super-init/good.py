"""Every way of running Cell.__init__, and classes that need none."""

from mindspore import nn, ops


class WithArguments(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


class OldStyleSuper(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super(OldStyleSuper, self).__init__()
        self.act = ops.ReLU()

    def construct(self, x):
        return self.act(x)


class ExplicitCellInit(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        nn.Cell.__init__(self)
        self.dense = nn.Dense(4, 4)

    def construct(self, x):
        return self.dense(x)


class Base(nn.Cell):
    def __init__(self, width):
        super().__init__()
        self.body = nn.Dense(width, width)

    def construct(self, x):
        return self.body(x)


class ExplicitBaseInit(Base):  # mslint: inputs=float32[2,4]
    def __init__(self):
        Base.__init__(self, 4)
        self.head = nn.Dense(4, 4)

    def construct(self, x):
        return self.head(self.body(x))


class NoInit(OldStyleSuper):  # mslint: inputs=float32[2,4]
    pass


class Settings:
    """Not a Cell: nothing to initialize."""

    def __init__(self):
        self.width = 4


class FromSettings(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self, settings=None):
        super().__init__()
        self.dense = nn.Dense(4, (settings or Settings()).width)

    def construct(self, x):
        return self.dense(x)
