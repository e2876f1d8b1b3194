"""`forward` that the Cell's own methods call, and the program uses it only through them
(video-diffusion ports' `RotaryEmbedding.rotate_queries_or_keys`): MindSpore compiles the method
that graph code calls, never a `construct`, so none is missing."""

from mindspore import nn


class Rotary(nn.Cell):
    def __init__(self, dim):
        super().__init__()
        self.scale = dim**-0.5

    def rotate_queries_or_keys(self, t):
        return self.forward(t)

    def forward(self, t):
        return t * self.scale


class Attention(nn.Cell):  # mslint: inputs=float32[2,4]
    def __init__(self):
        super().__init__()
        self.to_q = nn.Dense(4, 4)
        self.rotary_emb = Rotary(4)

    def construct(self, x):
        return self.rotary_emb.rotate_queries_or_keys(self.to_q(x))
