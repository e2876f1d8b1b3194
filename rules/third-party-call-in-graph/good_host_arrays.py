"""numpy on numpy arrays in code graph code reaches: the arrays are host constants (built in
`__init__`, at module level, by a project function, given to the constructor), so the compiler
runs numpy on them while compiling, in STRICT too (measured on MindSpore 2.10, one case per
process, STRICT and LAX)."""

import numpy as np

import mindspore as ms
from mindspore import nn

MASK = np.triu(np.ones((4, 4), np.float32))


def causal_mask(n):
    return np.triu(np.ones((n, n), np.float32))


def total(array):
    return float(np.sum(array))


class NumpyOnConstantsInConstruct(nn.Cell):  # mslint: inputs=float32[4,4]
    def __init__(self):
        super().__init__()
        self.dim = 4

    def construct(self, x):
        upper = np.triu(np.ones((4, 4), np.float32))
        return (x + ms.Tensor(upper)) / np.sqrt(self.dim) / np.sqrt(x.shape[-1])


class NumpyOnAnArrayBuiltInInit(nn.Cell):  # mslint: inputs=float32[4,4]
    def __init__(self):
        super().__init__()
        self.mask = causal_mask(4)

    def construct(self, x):
        kept = np.where(self.mask > 0, 1.0, 0.0).astype(np.float32)
        return x * float(np.max(self.mask)) + ms.Tensor(kept) + total(self.mask)


class NumpyOnAModuleLevelArray(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return x * float(np.sum(MASK))


class NumpyOnAShapeInAHelper(nn.Cell):  # mslint: inputs=float32[4,4]
    def construct(self, x):
        return x + ms.Tensor(causal_mask(x.shape[-1]))


class Scaled(nn.Cell):
    def construct(self, x, mask):
        return x * float(np.sum(mask))


class PassesAnArrayToASubCell(nn.Cell):  # mslint: inputs=float32[4,4]
    def __init__(self, mask=MASK):
        super().__init__()
        self.mask = mask
        self.scaled = Scaled()

    def construct(self, x):
        return self.scaled(x, self.mask)
