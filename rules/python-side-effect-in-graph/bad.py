"""Python attributes of a Cell changed in graph code: STRICT rejects it, LAX falls back to Python.
Python's random numbers and clocks read in graph code: run once while compiling, a constant after."""

import random
import time
from datetime import datetime

import numpy as np

from mindspore import nn


class StepCounter(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.count = 0

    def construct(self, x):
        self.count += 1  # expect: python-side-effect-in-graph
        return x * 2


class RememberLast(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.scale = 1.0

    def construct(self, x):
        self.scale = 2.0  # expect: python-side-effect-in-graph
        return x * 2


class RandomScale(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * random.uniform(0.5, 1.5)  # expect: python-side-effect-in-graph


class NumpyNoise(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        noise = np.random.uniform(0.0, 1.0, (2, 3))  # expect: python-side-effect-in-graph
        return x + noise.sum() * np.random.default_rng().random()  # expect: python-side-effect-in-graph


class RandomDrop(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if random.random() < 0.5:  # expect: python-side-effect-in-graph
            return x * 0
        return x


class TimesItself(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        start = time.perf_counter()  # expect: python-side-effect-in-graph
        y = x * 2
        return y, time.perf_counter() - start  # expect: python-side-effect-in-graph


class StampsSeconds(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x + datetime.now().second  # expect: python-side-effect-in-graph


def _initial_scale():
    return 2.0


class StateFromAHelper(nn.Cell):  # mslint: inputs=float32[2,4]
    """A helper that returns no Parameter: the attribute is Python state."""

    def __init__(self):
        super().__init__()
        self.scale = _initial_scale()

    def construct(self, x):
        self.scale = 3.0  # expect: python-side-effect-in-graph
        return x * self.scale
