"""`for ... else`, `while ... else` and `with` on MindSpore's no-grad scope in graph code."""

import mindspore as ms
from mindspore import nn


class ForElse(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        for i in range(2):
            y = y + i
        else:
            y = y * 2  # expect: unsupported-syntax
        return y


class WhileElse(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        y = x
        i = 0
        while i < 2:
            i += 1
        else:
            y = y * 2  # expect: unsupported-syntax
        return y


class NoGradScope(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with ms._no_grad():  # expect: unsupported-syntax
            y = x * 2
        return y
