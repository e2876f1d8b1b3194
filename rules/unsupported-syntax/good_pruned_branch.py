"""Statements in a branch the compiler never reads: its test is a constant of `self` that the class
sets to one value only, folded while parsing (2.10, STRICT and LAX compile)."""

from mindspore import nn


class Traced(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.debug = False

    def construct(self, x):
        if self.debug:
            import numpy as np

            print(np.asarray(x))
        return x * 2
