"""Silent hazards: each compiles cleanly in LAX, and graph mode's result differs from PyNative's."""

import random

from mindspore import nn

calls = 0


class GlobalCounter(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        global calls
        calls += 1
        return x * 2


class AppendsToSelf(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.seen = []

    def construct(self, x):
        self.seen.append(1)
        return x * 2


class CountsInADict(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.stats = {"calls": 0}

    def construct(self, x):
        self.stats["calls"] = self.stats["calls"] + 1
        return x * 2


class FrozenRandom(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * random.random()


class HeadBuiltInConstruct(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return nn.Dense(4, 3)(x)
