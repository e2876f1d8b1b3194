"""`super()` as graph mode takes it: no argument, or this class (or a base) and `self`."""

from mindspore import nn


class Base(nn.Cell):
    def construct(self, x):
        return x * 2


class Child(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(Child, self).construct(x) + 1


class GrandChild(Child):  # mslint: inputs=float32[2,4]
    """Naming `Child` skips `Child.construct` and runs `Base.construct`, as in Python."""

    def construct(self, x):
        return super(Child, self).construct(x) + 10


class InAHelperMethod(Base):  # mslint: inputs=float32[2,4]
    def scaled(self, x):
        return super().construct(x) * 3

    def construct(self, x):
        return self.scaled(x)
