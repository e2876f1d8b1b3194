"""Python attributes of a Cell changed in graph code: STRICT rejects it, LAX falls back to Python."""

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
