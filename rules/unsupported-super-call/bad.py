"""`super(...)` calls the graph compiler refuses."""

from mindspore import nn


class Base(nn.Cell):
    def construct(self, x):
        return x * 2


class Other(nn.Cell):
    def construct(self, x):
        return x * 3


class OneArgument(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(OneArgument).construct(x) + 1  # expect: unsupported-super-call


class AnotherObject(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(AnotherObject, x).construct(x) + 1  # expect: unsupported-super-call


class ClassOfSelf(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(self.__class__, self).construct(x) + 1  # expect: unsupported-super-call


class TypeOfSelf(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(type(self), self).construct(x) + 1  # expect: unsupported-super-call


class NotABase(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(Other, self).construct(x) + 1  # expect: unsupported-super-call


class NamesItsBase(Base):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return super(Base, self).construct(x) + 1  # expect: unsupported-super-call
