"""MindSpore APIs that MindSpore itself refuses in graph code, at every syntax level."""

import mindspore as ms
from mindspore import nn
from mindspore.common.initializer import initializer


class LogsInConstruct(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        ms.log.warning("step")  # expect: forbidden-api-in-graph
        return x


class ReadsContext(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        if ms.get_context("mode") == 0:  # expect: forbidden-api-in-graph
            return x * 2
        return x


class CountsParameters(nn.Cell):  # mslint: inputs=float32[4]
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor([1.0, 2.0, 3.0, 4.0], ms.float32), name="w")

    def construct(self, x):
        n = len(list(self.get_parameters()))  # expect: forbidden-api-in-graph
        return x * self.w * n


class InitializesInConstruct(nn.Cell):  # mslint: inputs=float32[4]
    def construct(self, x):
        w = initializer("normal", [4], ms.float32)  # expect: forbidden-api-in-graph
        return x * w
