"""`forward` that the Cell's own methods call, where the program also calls the Cell as a whole:
that call needs `construct`."""

from mindspore import nn


class RotaryCalled(nn.Cell):  # expect: forward-instead-of-construct
    def __init__(self, dim):
        super().__init__()
        self.scale = dim**-0.5

    def rotate(self, t):
        return self.forward(t)

    def forward(self, t):
        return t * self.scale


class CallsRotary(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.to_q = nn.Dense(4, 4)
        self.rotary_emb = RotaryCalled(4)

    def construct(self, x):
        return self.rotary_emb(self.to_q(x))
