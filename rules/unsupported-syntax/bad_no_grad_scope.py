"""`with` on MindSpore's no-grad scope in graph code: not a `@jit_class` instance."""

import mindspore as ms
from mindspore import nn


class NoGradScope(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        with ms._no_grad():  # expect: unsupported-syntax
            y = x * 2
        return y
