"""A module constant that picks a sub-Cell's variant: MindSpore compiles each instance on the value
its constructor or its call is given, a module constant as a literal, and only the branches it
takes. Here the constant picks the branch with `range` of a tensor (see good_module_constants.py,
where it rules that branch out)."""

import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

MODE = "loop"
CONFIG = {"mode": MODE}


class Halving(nn.Cell):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def construct(self, x, steps):
        if self.mode == "loop":
            for _ in range(steps):  # expect: unsupported-syntax
                x = x * 0.5
        return x


class HalvingPerCall(nn.Cell):
    def construct(self, x, steps, mode):
        if mode == "loop":
            for _ in range(steps):  # expect: unsupported-syntax
                x = x * 0.5
        return x


class BuiltWithTheConstant(nn.Cell):
    def __init__(self):
        super().__init__()
        self.halve = Halving(MODE)

    def construct(self, x, steps):
        return self.halve(x, steps)


class CalledWithTheConstant(nn.Cell):
    def __init__(self):
        super().__init__()
        self.halve = HalvingPerCall()

    def construct(self, x, steps):
        return self.halve(x, steps, MODE)


class BuiltFromTheConfig(nn.Cell):
    def __init__(self, config):
        super().__init__()
        self.halve = Halving(config["mode"])

    def construct(self, x, steps):
        return self.halve(x, steps)


if __name__ == "__main__":
    ms.set_context(mode=ms.GRAPH_MODE)
    x = Tensor(np.ones((2, 4), np.float32))
    steps = Tensor(3, ms.int32)
    BuiltWithTheConstant()(x, steps)
    CalledWithTheConstant()(x, steps)
    BuiltFromTheConfig(CONFIG)(x, steps)
