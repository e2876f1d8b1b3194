"""Methods of plain objects that assign an attribute of their own, called in graph code: STRICT
rejects the call (the attribute must be a Parameter), LAX interprets the method and loses the change."""

import abc
from dataclasses import dataclass

import mindspore as ms
from mindspore import nn


class Counter:
    def __init__(self):
        self.n = 1

    def bump(self):
        self.n += 1
        return self.n

    def step(self):
        return self.bump()  # expect: python-side-effect-in-graph


@ms.jit_class
class JitCounter:
    def __init__(self):
        self.n = 1

    def bump(self):
        self.n += 1
        return self.n


@dataclass
class DataCounter:
    n: int = 1

    def bump(self):
        self.n += 1
        return self.n


class AbstractCounter(abc.ABC):
    def __init__(self):
        self.n = 1

    def bump(self):
        self.n += 1
        return self.n


COUNTER = Counter()


class CounterAttributeBumped(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.counter = Counter()

    def construct(self, x):
        return x * self.counter.bump()  # expect: python-side-effect-in-graph


class CounterStepped(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.counter = Counter()

    def construct(self, x):
        return x * self.counter.step()


class GlobalCounterBumped(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        return x * COUNTER.bump()  # expect: python-side-effect-in-graph


class JitCounterBumped(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.counter = JitCounter()

    def construct(self, x):
        return x * self.counter.bump()  # expect: python-side-effect-in-graph


class DataCounterBumped(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.counter = DataCounter()

    def construct(self, x):
        return x * self.counter.bump()  # expect: python-side-effect-in-graph


class AbstractCounterBumped(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.counter = AbstractCounter()

    def construct(self, x):
        return x * self.counter.bump()  # expect: python-side-effect-in-graph
