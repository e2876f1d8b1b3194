"""Suppression comments name rules by symbol or code, in any case; `all` names every rule."""

import random

from mindspore import nn


class ScaleDrawnPerCompile(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * random.uniform(0.5, 1.5)  # mslint: disable=python-side-effect-in-graph


class ShiftDrawnPerCompile(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x + random.random()  # noqa: ms109


class OffsetDrawnPerCompile(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x - random.random()  # mslint: disable = all
