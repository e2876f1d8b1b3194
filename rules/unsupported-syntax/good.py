"""Statements older documentation calls unsupported that MindSpore 2.10 compiles."""

import math

from mindspore import nn

COUNTER = 0


class ModuleLevelImport(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        return x * math.pi


class LambdaAndAssert(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        double = lambda v: v * 2  # noqa: E731
        assert x.shape[0] == 2
        return double(x)


class RaiseOnShape(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        if x.shape[0] == 3:
            raise ValueError("expected two rows")
        return x


class GlobalRead(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        global COUNTER
        return x + COUNTER


def setup_with_try():
    """Not graph code: imports and try are fine here."""
    try:
        import numpy  # noqa: F401
    except ImportError:
        return False
    return True


class BuiltinsOnNumbers(nn.Cell):  # mslint: inputs=float32[8], int32[]
    def __init__(self):
        super().__init__()
        self.repeats = 2

    def construct(self, x, n):
        for _ in range(self.repeats):
            x = x * max(x.shape[0], 1)
        for i in range(int(n)):
            x = x + i
        return x


class FunctionDefinedInConstructReturnsATuple(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        def halves():
            return (x, x * 2)

        first, second = halves()
        return first + second + sum(x * i for i in range(3))


class FStringsOfStaticValues(nn.Cell):  # mslint: inputs=float32[2,4]
    def construct(self, x):
        print(f"shape={x.shape}, rows={x.shape[0]}")
        unused = f"{x}"
        assert x.shape[0] == 2, f"two rows, not {x}"
        if x.shape[1] != 4:
            raise ValueError(f"four columns, not {x}")
        return x * 2
