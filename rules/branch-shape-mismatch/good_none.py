"""None joined with a value where it compiles in STRICT: the name unused after the `if`, or an
`if` decided while compiling."""

from mindspore import nn


class NoneNotReadAfter(nn.Cell):  # mslint: inputs=float32[2,3]
    def construct(self, x):
        scratch = None
        if x.sum() > 0:
            scratch = x * 2
        return x


class NoneOnAConstantCondition(nn.Cell):  # mslint: inputs=float32[2,3]
    def __init__(self):
        super().__init__()
        self.use_bias = True

    def construct(self, x):
        bias = None
        if self.use_bias:
            bias = x * 2
        return x if bias is None else x + bias
